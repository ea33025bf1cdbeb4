// FreeType, for the teleprompter's text (VRenderImaging's font and text layout).
// ft2build.h must come first; FT_FREETYPE_H is a macro naming the main header.
#ifndef VRENDER_CFREETYPE_SHIM_H
#define VRENDER_CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#endif
