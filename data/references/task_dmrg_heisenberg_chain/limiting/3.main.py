def main():
    # SU(2): in the singlet ground state <Sz_i Sz_j> = <Sx_i Sx_j> for every pair.
    energy, psi = run_chain_ground_state(L=10, J=1.0, chi_max=64, max_sweeps=10)
    zz, xx = observable_spin_correlations(psi, 2)
    print("PHYSVEC_RESULT " + json.dumps({"name": "max_j |<SzSz> - <SxSx>|", "value": float(np.max(np.abs(zz - xx)))}))
