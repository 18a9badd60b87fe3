using ITensors, ITensorMPS

"""
Stands in for an effector_ function: finite DMRG.

Args: H (MPO); psi0 (MPS); nsweeps; maxdim (per-sweep bond dimensions); cutoff (truncation error).
Returns: (energy, psi).
"""
function effector_verifier_dmrg(H, psi0; nsweeps::Int=10, maxdim::Vector{Int}=[10, 20, 100], cutoff::Vector{Float64}=[1e-10])
    energy, psi = dmrg(H, psi0; nsweeps=nsweeps, maxdim=maxdim, cutoff=cutoff, outputlevel=0)
    return energy, psi
end
