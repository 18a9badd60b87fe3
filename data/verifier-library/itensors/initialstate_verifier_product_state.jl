using ITensors, ITensorMPS

"""
Stands in for an initialstate_ function: a product-state MPS (it fixes the conserved quantum numbers).

Args: sites; states, one state name per site ("Up", "Dn", "Emp", "UpDn", ...); linkdims > 1 adds a random
MPS of that bond dimension in the same sector.
Returns: the MPS.
"""
function initialstate_verifier_product_state(sites, states::Vector{String}; linkdims::Int=1)
    if linkdims > 1
        return random_mps(sites, states; linkdims=linkdims)
    end
    return MPS(sites, states)
end
