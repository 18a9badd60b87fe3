using ITensors, ITensorMPS

"""
Stands in for a hamiltonian_ function: open Hubbard chain
H = -t sum_<ij>,s (c+_is c_js + h.c.) + U sum_i n_iu n_id + sum_i V_i n_i.

Args: sites (site_verifier_electron); t; U; potential (per-site V_i, default zero).
Returns: the MPO built from an OpSum.
"""
function hamiltonian_verifier_hubbard(sites; t::Float64=1.0, U::Float64=0.0, potential::Vector{Float64}=zeros(length(sites)))
    os = OpSum()
    for j in 1:(length(sites) - 1)
        os += -t, "Cdagup", j, "Cup", j + 1
        os += -t, "Cdagup", j + 1, "Cup", j
        os += -t, "Cdagdn", j, "Cdn", j + 1
        os += -t, "Cdagdn", j + 1, "Cdn", j
    end
    for j in 1:length(sites)
        os += U, "Nupdn", j
        os += potential[j], "Ntot", j
    end
    return MPO(os, sites)
end
