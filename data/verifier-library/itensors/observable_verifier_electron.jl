using ITensors, ITensorMPS

"""
Stands in for an observable_ function on electron sites: local densities and the spin-up correlation matrix.

Args: psi (MPS on "Electron" sites); ops, on-site operator names.
Returns: a Dict from each op name to its per-site expectation values, plus "correlation_matrix_up".
"""
function observable_verifier_electron(psi::MPS; ops::Vector{String}=["Ntot", "Sz"])
    results = Dict{String, Any}()
    for op in ops
        results[op] = expect(psi, op)
    end
    results["correlation_matrix_up"] = correlation_matrix(psi, "Cdagup", "Cup")
    return results
end
