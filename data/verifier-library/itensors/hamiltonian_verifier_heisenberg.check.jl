# expected: open 4-site Heisenberg chain ground-state energy -(3 + 2 sqrt(3))/4 = -1.6160254 (abs tol 1e-8)
# uses: site_verifier_spin_half, initialstate_verifier_product_state, effector_verifier_dmrg
include("hamiltonian_verifier_heisenberg.jl")
include("site_verifier_spin_half.jl")
include("initialstate_verifier_product_state.jl")
include("effector_verifier_dmrg.jl")

sites = site_verifier_spin_half(4; conserve_qns=true)
expected = -(3 + 2 * sqrt(3)) / 4
energy, _ = effector_verifier_dmrg(hamiltonian_verifier_heisenberg(sites), initialstate_verifier_product_state(sites, ["Up", "Dn", "Up", "Dn"]); nsweeps=10, maxdim=[16])
ok = abs(energy - expected) < 1e-8
println("PHYSVEC_RESULT {\"name\": \"heisenberg_L4_energy\", \"value\": $(energy), \"expected\": $(expected), \"ok\": $(ok)}")
exit(ok ? 0 : 1)
