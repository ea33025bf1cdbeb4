// espeak-ng (formant speech synthesis in ~100 languages): the synthetic presenter's voice and
// the reference speech captions are aligned against (VRenderSpeech's SpeechSynthesizer).
#ifndef VRENDER_CESPEAK_SHIM_H
#define VRENDER_CESPEAK_SHIM_H
#include <espeak-ng/speak_lib.h>
#include <sys/syscall.h>
#include <unistd.h>

// memfd_create(name, MFD_CLOEXEC): an in-memory file to hand espeak-ng a voice by path
// (/proc/self/fd/N). Glibc declares it only under _GNU_SOURCE, which Swift's Glibc module lacks.
static inline int vrender_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 1u /* MFD_CLOEXEC */);
}
#endif
