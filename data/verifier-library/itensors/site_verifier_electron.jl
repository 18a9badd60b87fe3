using ITensors, ITensorMPS

"""
Stands in for a site_ function of spinful fermions (Hubbard models).

Args: N sites; conserve_qns conserves both particle number and Sz (conserve_nf / conserve_sz separately).
Returns: a Vector of "Electron" site indices (states "Emp", "Up", "Dn", "UpDn"; operators "Nup", "Ndn", "Ntot", "Cdagup", ...).
"""
function site_verifier_electron(N::Int; conserve_qns::Bool=false, conserve_sz::Bool=false, conserve_nf::Bool=false)
    sites = siteinds("Electron", N; conserve_qns=conserve_qns, conserve_sz=conserve_sz, conserve_nf=conserve_nf)
    return sites
end
