// GNU FriBidi: the Unicode bidirectional algorithm (UAX #9) for burned-in captions, so a line
// mixing right-to-left and left-to-right text is laid out in the order readers expect.
#ifndef VRENDER_CFRIBIDI_SHIM_H
#define VRENDER_CFRIBIDI_SHIM_H
#include <stdint.h>
#include <stdlib.h>
#include <fribidi.h>

// The embedding level of each of `length` characters of one paragraph whose direction its
// first strong character gives (FriBidi's FRIBIDI_PAR_ON, a macro Swift cannot import).
// Returns the highest level, or -1 when FriBidi fails (out of memory).
static inline int vrender_bidi_levels(const uint32_t *text, int length, uint8_t *levels) {
    FriBidiCharType *types = malloc(sizeof(FriBidiCharType) * (length > 0 ? length : 1));
    FriBidiBracketType *brackets = malloc(sizeof(FriBidiBracketType) * (length > 0 ? length : 1));
    if (!types || !brackets) { free(types); free(brackets); return -1; }
    fribidi_get_bidi_types(text, length, types);
    fribidi_get_bracket_types(text, length, types, brackets);
    FriBidiParType direction = FRIBIDI_PAR_ON;
    FriBidiLevel highest = fribidi_get_par_embedding_levels_ex(types, brackets, length, &direction, levels);
    free(types);
    free(brackets);
    return highest == 0 ? -1 : (int)highest - 1;
}
#endif
