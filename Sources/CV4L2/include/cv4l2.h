// The part of the V4L2 API that Swift cannot use by itself: the variadic ioctl(2), the
// VIDIOC_* request codes and V4L2_PIX_FMT_* fourccs (function-like macros), and a few control
// ids built from macro arithmetic. The structs themselves import fine from <linux/videodev2.h>.
// Nothing else belongs here: all logic lives in Swift (VRenderCapture).
#ifndef VRENDER_CV4L2_H
#define VRENDER_CV4L2_H

#include <stddef.h>
#include <stdint.h>
#include <linux/videodev2.h>

/// ioctl(2) with a fixed signature (Swift cannot call a variadic C function). Retries while the
/// call is interrupted by a signal (EINTR); otherwise returns ioctl's result: -1 with errno set
/// on failure.
int vr_v4l2_ioctl(int fd, unsigned long request, void *arg);

// ---------------------------------------------------------------- request codes ---
// _IOR/_IOW/_IOWR encode the argument's size, so these are correct only with the struct
// layouts asserted in cv4l2.c.
static const unsigned long VR_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long VR_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long VR_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long VR_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
static const unsigned long VR_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long VR_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long VR_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long VR_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long VR_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long VR_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long VR_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long VR_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long VR_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long VR_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
static const unsigned long VR_VIDIOC_QUERYCTRL = VIDIOC_QUERYCTRL;
static const unsigned long VR_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
static const unsigned long VR_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
static const unsigned long VR_VIDIOC_G_INPUT = VIDIOC_G_INPUT;
static const unsigned long VR_VIDIOC_ENUMINPUT = VIDIOC_ENUMINPUT;

// ---------------------------------------------------------------------- fourccs ---
static const uint32_t VR_V4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
static const uint32_t VR_V4L2_PIX_FMT_NV12 = V4L2_PIX_FMT_NV12;
static const uint32_t VR_V4L2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;
static const uint32_t VR_V4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
static const uint32_t VR_V4L2_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;

// ------------------------------------------------------------------ control ids ---
// Defined as sums of class bases; spelled out here so Swift need not trust macro evaluation.
static const uint32_t VR_V4L2_CID_ZOOM_ABSOLUTE = V4L2_CID_ZOOM_ABSOLUTE;
static const uint32_t VR_V4L2_CID_FLASH_LED_MODE = V4L2_CID_FLASH_LED_MODE;
static const uint32_t VR_V4L2_CID_FLASH_TORCH_INTENSITY = V4L2_CID_FLASH_TORCH_INTENSITY;
static const uint32_t VR_V4L2_CTRL_FLAG_NEXT_CTRL = V4L2_CTRL_FLAG_NEXT_CTRL;

// --------------------------------------------------------- struct size checks ---
/// The structs whose sizes the request codes encode, for `vr_v4l2_sizeof`.
typedef enum {
    VR_V4L2_STRUCT_CAPABILITY,
    VR_V4L2_STRUCT_FMTDESC,
    VR_V4L2_STRUCT_FRMSIZEENUM,
    VR_V4L2_STRUCT_FRMIVALENUM,
    VR_V4L2_STRUCT_FORMAT,
    VR_V4L2_STRUCT_STREAMPARM,
    VR_V4L2_STRUCT_REQUESTBUFFERS,
    VR_V4L2_STRUCT_BUFFER,
    VR_V4L2_STRUCT_QUERYCTRL,
    VR_V4L2_STRUCT_CONTROL,
    VR_V4L2_STRUCT_INPUT,
    VR_V4L2_STRUCT_COUNT
} vr_v4l2_struct;

/// C's `sizeof` of one of the structs above (0 for an unknown value), so a test can compare it
/// with Swift's `MemoryLayout<T>.size` of the imported struct.
size_t vr_v4l2_sizeof(vr_v4l2_struct which);

#endif
