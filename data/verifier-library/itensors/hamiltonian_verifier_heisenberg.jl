using ITensors, ITensorMPS

"""
Stands in for a hamiltonian_ function: open Heisenberg chain H = sum_i [J/2 (S+_i S-_{i+1} + h.c.) + Jz Sz_i Sz_{i+1}].

Args: sites (site_verifier_spin_half); J; Jz (default J).
Returns: the MPO built from an OpSum.
"""
function hamiltonian_verifier_heisenberg(sites; J::Float64=1.0, Jz::Float64=J)
    os = OpSum()
    for j in 1:(length(sites) - 1)
        os += Jz, "Sz", j, "Sz", j + 1
        os += J / 2, "S+", j, "S-", j + 1
        os += J / 2, "S-", j, "S+", j + 1
    end
    return MPO(os, sites)
end
