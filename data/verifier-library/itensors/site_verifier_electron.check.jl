# expected: two-site Hubbard at U=0 with one up and one down electron, ground-state energy -2 (abs tol 1e-8)
# uses: hamiltonian_verifier_hubbard, initialstate_verifier_product_state, effector_verifier_dmrg
include("site_verifier_electron.jl")
include("hamiltonian_verifier_hubbard.jl")
include("initialstate_verifier_product_state.jl")
include("effector_verifier_dmrg.jl")

sites = site_verifier_electron(2; conserve_qns=true)
H = hamiltonian_verifier_hubbard(sites; t=1.0, U=0.0)
energy, _ = effector_verifier_dmrg(H, initialstate_verifier_product_state(sites, ["Up", "Dn"]); nsweeps=10, maxdim=[4, 8])
ok = abs(energy + 2.0) < 1e-8
println("PHYSVEC_RESULT {\"name\": \"two_site_hubbard_U0_energy\", \"value\": $(energy), \"expected\": -2.0, \"ok\": $(ok)}")
exit(ok ? 0 : 1)
