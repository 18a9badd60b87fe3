# expected: two-site Hubbard at U=2 with one up and one down electron, ground-state energy (U - sqrt(U^2+16))/2 = -1.2360680 (abs tol 1e-8)
# uses: site_verifier_electron, initialstate_verifier_product_state, effector_verifier_dmrg
include("hamiltonian_verifier_hubbard.jl")
include("site_verifier_electron.jl")
include("initialstate_verifier_product_state.jl")
include("effector_verifier_dmrg.jl")

sites = site_verifier_electron(2; conserve_qns=true)
expected = (2 - sqrt(20)) / 2
energy, _ = effector_verifier_dmrg(hamiltonian_verifier_hubbard(sites; U=2.0), initialstate_verifier_product_state(sites, ["Up", "Dn"]); nsweeps=10, maxdim=[8])
ok = abs(energy - expected) < 1e-8
println("PHYSVEC_RESULT {\"name\": \"hubbard_dimer_energy\", \"value\": $(energy), \"expected\": $(expected), \"ok\": $(ok)}")
exit(ok ? 0 : 1)
