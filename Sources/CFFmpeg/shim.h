// The part of FFmpeg's API that Swift cannot import by itself: function-like macros and
// macro constants, re-exposed as static inline functions. Nothing else belongs here.
#ifndef VRENDER_CFFMPEG_SHIM_H
#define VRENDER_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/md5.h>
#include <libavutil/sha.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/pixdesc.h>
#include <libavutil/tx.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

/// AVERROR(EAGAIN): "output is not available in this state, try the other call first".
static inline int vr_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF: end of stream.
static inline int vr_averror_eof(void) { return AVERROR_EOF; }
/// AVERROR_INVALIDDATA: damaged or unparseable data.
static inline int vr_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
/// AV_NOPTS_VALUE: "no timestamp".
static inline int64_t vr_nopts_value(void) { return AV_NOPTS_VALUE; }
/// AV_TIME_BASE_Q: the microsecond time base of AVFormatContext durations.
static inline AVRational vr_time_base_q(void) { return AV_TIME_BASE_Q; }

#endif
