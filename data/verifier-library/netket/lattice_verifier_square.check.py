# expected: a periodic 4x4 square lattice has 16 nodes, 32 bonds and coordination 4; an open 3x3 one has 12 bonds
import json
import sys

from lattice_verifier_square import lattice_verifier_square

g = lattice_verifier_square(4)
value = [g.n_nodes, len(g.edges()), max(len(n) for n in g.adjacency_list()), len(lattice_verifier_square(3, pbc=False).edges())]
expected = [16, 32, 4, 12]
ok = value == expected
print("PHYSVEC_RESULT " + json.dumps({"name": "square_nodes_bonds", "value": value, "expected": expected, "ok": ok}))
sys.exit(0 if ok else 1)
