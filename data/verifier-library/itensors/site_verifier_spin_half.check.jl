# expected: two-site Heisenberg ground-state energy -0.75 (abs tol 1e-8)
# uses: hamiltonian_verifier_heisenberg, initialstate_verifier_product_state, effector_verifier_dmrg
include("site_verifier_spin_half.jl")
include("hamiltonian_verifier_heisenberg.jl")
include("initialstate_verifier_product_state.jl")
include("effector_verifier_dmrg.jl")

sites = site_verifier_spin_half(2; conserve_qns=true)
energy, _ = effector_verifier_dmrg(hamiltonian_verifier_heisenberg(sites), initialstate_verifier_product_state(sites, ["Up", "Dn"]); nsweeps=10, maxdim=[4])
ok = abs(energy + 0.75) < 1e-8
println("PHYSVEC_RESULT {\"name\": \"two_site_heisenberg_energy\", \"value\": $(energy), \"expected\": -0.75, \"ok\": $(ok)}")
exit(ok ? 0 : 1)
