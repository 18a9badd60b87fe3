# expected: a periodic 6-site chain has 6 nodes and 6 bonds, an open one 5 bonds
import json
import sys

from lattice_verifier_chain import lattice_verifier_chain

periodic, open_chain = lattice_verifier_chain(6), lattice_verifier_chain(6, pbc=False)
value = [periodic.n_nodes, len(periodic.edges()), len(open_chain.edges())]
ok = value == [6, 6, 5]
print("PHYSVEC_RESULT " + json.dumps({"name": "chain_nodes_and_bonds", "value": value, "expected": [6, 6, 5], "ok": ok}))
sys.exit(0 if ok else 1)
