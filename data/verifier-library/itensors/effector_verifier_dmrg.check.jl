# expected: DMRG on the open 8-site Heisenberg chain reaches -3.3749325987 (abs tol 1e-7)
# uses: site_verifier_spin_half, hamiltonian_verifier_heisenberg, initialstate_verifier_product_state
include("effector_verifier_dmrg.jl")
include("site_verifier_spin_half.jl")
include("hamiltonian_verifier_heisenberg.jl")
include("initialstate_verifier_product_state.jl")

sites = site_verifier_spin_half(8; conserve_qns=true)
energy, _ = effector_verifier_dmrg(hamiltonian_verifier_heisenberg(sites), initialstate_verifier_product_state(sites, repeat(["Up", "Dn"], 4)); nsweeps=10, maxdim=[10, 20, 40])
ok = abs(energy + 3.3749325986878884) < 1e-7
println("PHYSVEC_RESULT {\"name\": \"dmrg_heisenberg_L8_energy\", \"value\": $(energy), \"expected\": -3.3749325986878884, \"ok\": $(ok)}")
exit(ok ? 0 : 1)
