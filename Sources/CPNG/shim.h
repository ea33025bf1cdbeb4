// libpng, for writing thumbnails and contact sheets. Nothing needs shimming yet.
#ifndef VRENDER_CPNG_SHIM_H
#define VRENDER_CPNG_SHIM_H
#include <png.h>
#endif
