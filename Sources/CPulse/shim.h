// PulseAudio's client library, asynchronous API only: a threaded main loop with record streams
// (the microphone) and introspection (`vrender devices`). pa_simple is not used: it has no way
// to end a blocked read from another thread. PipeWire's pipewire-pulse serves the same protocol.
#pragma once
#include <pulse/pulseaudio.h>
