// libvidstab (Debian's libvidstab-dev), for `vrender concat --stabilize`: motion detection
// between frames and the warp that applies a correction. Its headers include each other by
// bare name, so they are reached through the vid.stab folder.
#ifndef VRENDER_CVIDSTAB_SHIM_H
#define VRENDER_CVIDSTAB_SHIM_H
#include <vid.stab/libvidstab.h>

// libvidstab prints its notes to stderr through the `vs_log` pointer; vrender reports failures
// from its return codes instead. (Swift can neither write a C variadic function nor, in its
// strict concurrency mode, assign a C global: both done here.)
static int vr_vidstab_silent_log(int type, const char *tag, const char *format, ...) {
    (void)type; (void)tag; (void)format;
    return 0;
}

static inline void vr_vidstab_silence(void) { vs_log = vr_vidstab_silent_log; }
#endif
