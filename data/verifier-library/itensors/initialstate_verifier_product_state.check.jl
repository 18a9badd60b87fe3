# expected: Neel state on 4 spins has <Sz> = [0.5, -0.5, 0.5, -0.5] (abs tol 1e-12)
# uses: site_verifier_spin_half
include("initialstate_verifier_product_state.jl")
include("site_verifier_spin_half.jl")

psi = initialstate_verifier_product_state(site_verifier_spin_half(4; conserve_qns=true), ["Up", "Dn", "Up", "Dn"])
sz = expect(psi, "Sz")
ok = maximum(abs.(sz .- [0.5, -0.5, 0.5, -0.5])) < 1e-12
println("PHYSVEC_RESULT {\"name\": \"neel_sz\", \"value\": $(sz), \"expected\": [0.5, -0.5, 0.5, -0.5], \"ok\": $(ok)}")
exit(ok ? 0 : 1)
