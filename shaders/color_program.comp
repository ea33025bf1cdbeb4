#version 450
// One colour program (Sources/VRenderFilters/ColorProgram.swift: a Q12 3x3 matrix on
// (Y-16, Cb-128, Cr-128), arithmetic shift, clamp, then a 256-entry curve per channel) applied in
// place to one planar 8-bit Y'CbCr frame. Integer math only: the result must equal
// ColorProgram.referenceApply byte for byte.
//
// The frame lives in one storage buffer of 32-bit words (8-bit storage is optional in Vulkan, so
// bytes are packed by hand). Each invocation owns 4 horizontally adjacent chroma samples: one
// Cb word, one Cr word and, per luma row of their blocks, BLOCK_W luma words. Planes are laid out
// by the host with strides that keep those words aligned, so no two invocations ever write the
// same word and the program can run in place, several times over, without races.
//
// Regenerate the embedded SPIR-V with scripts/compile-shaders.sh after editing this file.

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

// Luma samples per chroma sample horizontally and vertically: 2x2 for 4:2:0, 2x1 for 4:2:2,
// 1x1 for 4:4:4. Specialized when the pipeline is created so the loops below unroll.
layout(constant_id = 0) const uint BLOCK_W = 2;
layout(constant_id = 1) const uint BLOCK_H = 2;

layout(std430, set = 0, binding = 0) restrict buffer Frame {
    uint words[];
} frame;

// Every program of the chain, 208 words each (`programTableStride` in Swift): words 0-8 the
// matrix (two's-complement Int32), 9-15 unused, then the luma, Cb and Cr curves, four 8-bit
// entries per word. `restrict`: the two buffers never alias, so the compiler may keep values.
layout(std430, set = 0, binding = 1) restrict readonly buffer Programs {
    uint words[];
} programs;

// Must match FrameLayout.pushConstants (Swift), field by field.
layout(push_constant) uniform Geometry {
    uint lumaWidth;
    uint lumaHeight;
    uint chromaHeight;
    uint chromaStrideWords;  // words per chroma row; a luma row has BLOCK_W times as many
    uint lumaOffsetWords;
    uint cbOffsetWords;
    uint crOffsetWords;
    uint programOffsetWords; // where this dispatch's program starts in `programs`
} g;

const uint CURVES = 16;      // word offset of the curves inside one program
const uint LUMA_CURVE = 0;   // entry offsets inside the curves
const uint CB_CURVE = 256;
const uint CR_CURVE = 512;

uint byteAt(uint word, uint index) {
    return (word >> (8u * index)) & 0xffu;
}

// curve[clamp(value + offset)], the clamp keeping the index in 0...255 as the definition says.
// The curves are read straight from the (small, cached) program table: copying them to shared
// memory first measured slower on lavapipe and needs a workgroup barrier.
uint lookup(uint curve, int value, int offset) {
    uint entry = curve + uint(clamp(value + offset, 0, 255));
    return byteAt(programs.words[g.programOffsetWords + CURVES + (entry >> 2)], entry & 3u);
}

void main() {
    uint column = gl_GlobalInvocationID.x; // which group of 4 chroma samples in the row
    uint cy = gl_GlobalInvocationID.y;
    if (column >= g.chromaStrideWords || cy >= g.chromaHeight) {
        return;
    }

    int matrix[9];
    for (uint i = 0u; i < 9u; ++i) {
        matrix[i] = int(programs.words[g.programOffsetWords + i]);
    }

    uint chromaIndex = cy * g.chromaStrideWords + column;
    uint cbWord = frame.words[g.cbOffsetWords + chromaIndex];
    uint crWord = frame.words[g.crOffsetWords + chromaIndex];
    uint lumaStrideWords = g.chromaStrideWords * BLOCK_W;

    // Rows of the last block row that fall below the picture (odd heights) are neither read nor
    // written: they are not part of the luma plane. Every loop below has a constant trip count
    // once BLOCK_W and BLOCK_H are specialized, so it unrolls and the arrays stay in registers.
    bool rowInside[BLOCK_H];
    uint lumaIn[BLOCK_H * BLOCK_W];
    uint lumaOut[BLOCK_H * BLOCK_W];
    for (uint r = 0u; r < BLOCK_H; ++r) {
        uint y = cy * BLOCK_H + r;
        rowInside[r] = y < g.lumaHeight;
        uint rowStart = g.lumaOffsetWords + y * lumaStrideWords + column * BLOCK_W;
        for (uint w = 0u; w < BLOCK_W; ++w) {
            lumaIn[r * BLOCK_W + w] = rowInside[r] ? frame.words[rowStart + w] : 0u;
            lumaOut[r * BLOCK_W + w] = 0u;
        }
    }

    uint cbOut = 0u;
    uint crOut = 0u;
    for (uint k = 0u; k < 4u; ++k) {
        uint cx = column * 4u + k;
        int u = int(byteAt(cbWord, k)) - 128;
        int v = int(byteAt(crWord, k)) - 128;
        // The chroma part of the luma row, plus the rounding term; the same for the whole block.
        int lumaBias = matrix[1] * u + matrix[2] * v + 2048;
        uint sum = 0u;
        uint count = 0u;
        for (uint r = 0u; r < BLOCK_H; ++r) {
            for (uint c = 0u; c < BLOCK_W; ++c) {
                // Byte index of this luma sample within the invocation's BLOCK_W words of the row.
                uint b = k * BLOCK_W + c;
                uint y = byteAt(lumaIn[r * BLOCK_W + (b >> 2)], b & 3u);
                uint result = lookup(LUMA_CURVE, (matrix[0] * (int(y) - 16) + lumaBias) >> 12, 16);
                lumaOut[r * BLOCK_W + (b >> 2)] |= result << (8u * (b & 3u));
                // Samples right of the picture (cut-off edge blocks, stride padding) or below it
                // are computed like the others but left out of the block's mean.
                if (rowInside[r] && cx * BLOCK_W + c < g.lumaWidth) {
                    sum += y;
                    count += 1u;
                }
            }
        }
        // count == 0 only for padding columns past the chroma plane's width: nothing to compute.
        if (count > 0u) {
            int ybar = int((sum + count / 2u) / count) - 16;
            int newCb = (matrix[3] * ybar + matrix[4] * u + matrix[5] * v + 2048) >> 12;
            int newCr = (matrix[6] * ybar + matrix[7] * u + matrix[8] * v + 2048) >> 12;
            cbOut |= lookup(CB_CURVE, newCb, 128) << (8u * k);
            crOut |= lookup(CR_CURVE, newCr, 128) << (8u * k);
        }
    }

    frame.words[g.cbOffsetWords + chromaIndex] = cbOut;
    frame.words[g.crOffsetWords + chromaIndex] = crOut;
    for (uint r = 0u; r < BLOCK_H; ++r) {
        if (rowInside[r]) {
            uint rowStart = g.lumaOffsetWords + (cy * BLOCK_H + r) * lumaStrideWords + column * BLOCK_W;
            for (uint w = 0u; w < BLOCK_W; ++w) {
                frame.words[rowStart + w] = lumaOut[r * BLOCK_W + w];
            }
        }
    }
}
