# expected: Hubbard dimer at U=0 with one up and one down electron has <Nup_i> = <Ndn_i> = 0.5 (abs tol 1e-8)
# uses: site_verifier_electron, hamiltonian_verifier_hubbard, initialstate_verifier_product_state, effector_verifier_dmrg
include("observable_verifier_electron.jl")
include("site_verifier_electron.jl")
include("hamiltonian_verifier_hubbard.jl")
include("initialstate_verifier_product_state.jl")
include("effector_verifier_dmrg.jl")

sites = site_verifier_electron(2; conserve_qns=true)
_, psi = effector_verifier_dmrg(hamiltonian_verifier_hubbard(sites), initialstate_verifier_product_state(sites, ["Up", "Dn"]); nsweeps=10, maxdim=[8])
r = observable_verifier_electron(psi; ops=["Nup", "Ndn"])
ok = maximum(abs.(r["Nup"] .- 0.5)) < 1e-8 && maximum(abs.(r["Ndn"] .- 0.5)) < 1e-8
println("PHYSVEC_RESULT {\"name\": \"hubbard_dimer_densities\", \"value\": $(r["Nup"]), \"expected\": [0.5, 0.5], \"ok\": $(ok)}")
exit(ok ? 0 : 1)
