using ITensors, ITensorMPS

"""
Stands in for a site_ function of a spin-1/2 chain.

Args: N sites; conserve_qns conserves total Sz.
Returns: a Vector of "S=1/2" site indices (states "Up", "Dn"; operators "Sz", "S+", "S-", ...).
"""
function site_verifier_spin_half(N::Int; conserve_qns::Bool=false)
    return siteinds("S=1/2", N; conserve_qns=conserve_qns)
end
