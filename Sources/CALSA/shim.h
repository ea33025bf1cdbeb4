// ALSA's library (libasound) through <alsa/asoundlib.h>. Swift imports its functions, enums and
// integer macros as they are; the one thing it cannot write is the variadic error handler, which
// this header supplies so that vrender's own messages, not ALSA's stderr lines, reach the user.
#ifndef VRENDER_CALSA_SHIM_H
#define VRENDER_CALSA_SHIM_H

#include <alsa/asoundlib.h>

static void vr_alsa_ignore_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// Stops libasound printing "ALSA lib pcm.c:...: Unknown PCM" to stderr: every failure it reports
/// also comes back as an error code, which vrender turns into an error naming the device.
static inline void vr_alsa_silence_library_errors(void) {
    snd_lib_error_set_handler(vr_alsa_ignore_error);
}

#endif
