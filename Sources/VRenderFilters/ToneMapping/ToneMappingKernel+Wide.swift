internal import CRowKernels

extension ToneMappingKernel {
    /// This kernel's coefficients and tables as `vr_tone_map_blocks_avx2` and `_avx512` read them. Built
    /// per band, not stored: the C struct holds raw pointers, which are not `Sendable`.
    func wideParameters() -> vr_tone_map_params {
        let p = primaries
        return vr_tone_map_params(
            eotf: tables.eotf, ootf: tables.ootf, gain: tables.gain, oetf: tables.oetf,
            eotf_scale: Float(ToneMappingTables.eotfCount - 1), ootf_scale: Float(ToneMappingTables.ootfCount - 1),
            gain_scale: Float(ToneMappingTables.gainCount - 1), oetf_scale: Float(ToneMappingTables.oetfCount - 1),
            gain_range: tables.gainRange,
            luma_scale: lumaScale, luma_offset: lumaOffset, chroma_scale: chromaScale, chroma_offset: chromaOffset,
            red_from_cr: redFromCr, green_from_cb: greenFromCb, green_from_cr: greenFromCr, blue_from_cb: blueFromCb,
            kr2020: kr2020, kg2020: kg2020, kb2020: kb2020,
            primaries: (p.0, p.1, p.2, p.3, p.4, p.5, p.6, p.7, p.8),
            kr709: kr709, kg709: kg709, kb709: kb709,
            cb_from_blue_difference: cbFromBlueDifference, cr_from_red_difference: crFromRedDifference,
            max_code: UInt32(maxCode), is_hlg: isHLG ? 1 : 0)
    }
}
