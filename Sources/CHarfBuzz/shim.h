// HarfBuzz, which shapes burned-in captions: OpenType ligatures, Arabic joining forms and
// mark placement that FreeType alone does not do. hb-ft.h makes a HarfBuzz font of a
// FreeType face, so shaping and rasterizing read the same face at the same size.
#ifndef VRENDER_CHARFBUZZ_SHIM_H
#define VRENDER_CHARFBUZZ_SHIM_H
#include <hb.h>
#include <hb-ft.h>
#endif
