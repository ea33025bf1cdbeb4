// libebur128 (ITU-R BS.1770 / EBU R128 loudness): `concat --loudness` measures an export's
// integrated loudness and true peak with it (VRenderExport's LoudnessMeter).
#ifndef VRENDER_CEBUR128_SHIM_H
#define VRENDER_CEBUR128_SHIM_H
#include <ebur128.h>
#endif
