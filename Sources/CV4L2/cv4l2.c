#include "cv4l2.h"

#include <errno.h>
#include <sys/ioctl.h>

int vr_v4l2_ioctl(int fd, unsigned long request, void *arg) {
    int result;
    // A signal arriving during a blocking ioctl must not look like a device failure; errno is
    // left as the kernel set it for every other outcome, for the caller to read at once.
    do {
        result = ioctl(fd, request, arg);
    } while (result == -1 && errno == EINTR);
    return result;
}

// The ABI the request codes were built for: x86_64 Linux (LP64, 16-byte struct timeval).
// If one of these fires, the request codes above encode other sizes than the kernel expects
// and every ioctl would fail with ENOTTY: check the platform before relaxing them.
#if defined(__x86_64__)
_Static_assert(sizeof(struct v4l2_capability) == 104, "v4l2_capability");
_Static_assert(sizeof(struct v4l2_fmtdesc) == 64, "v4l2_fmtdesc");
_Static_assert(sizeof(struct v4l2_frmsizeenum) == 44, "v4l2_frmsizeenum");
_Static_assert(sizeof(struct v4l2_frmivalenum) == 52, "v4l2_frmivalenum");
_Static_assert(sizeof(struct v4l2_format) == 208, "v4l2_format");
_Static_assert(sizeof(struct v4l2_streamparm) == 204, "v4l2_streamparm");
_Static_assert(sizeof(struct v4l2_requestbuffers) == 20, "v4l2_requestbuffers");
_Static_assert(sizeof(struct v4l2_buffer) == 88, "v4l2_buffer");
_Static_assert(sizeof(struct v4l2_queryctrl) == 68, "v4l2_queryctrl");
_Static_assert(sizeof(struct v4l2_control) == 8, "v4l2_control");
_Static_assert(sizeof(struct v4l2_input) == 80, "v4l2_input");
_Static_assert(VIDIOC_QUERYCAP == 0x80685600UL, "VIDIOC_QUERYCAP");
_Static_assert(VIDIOC_DQBUF == 0xc0585611UL, "VIDIOC_DQBUF");
#endif

size_t vr_v4l2_sizeof(vr_v4l2_struct which) {
    switch (which) {
    case VR_V4L2_STRUCT_CAPABILITY: return sizeof(struct v4l2_capability);
    case VR_V4L2_STRUCT_FMTDESC: return sizeof(struct v4l2_fmtdesc);
    case VR_V4L2_STRUCT_FRMSIZEENUM: return sizeof(struct v4l2_frmsizeenum);
    case VR_V4L2_STRUCT_FRMIVALENUM: return sizeof(struct v4l2_frmivalenum);
    case VR_V4L2_STRUCT_FORMAT: return sizeof(struct v4l2_format);
    case VR_V4L2_STRUCT_STREAMPARM: return sizeof(struct v4l2_streamparm);
    case VR_V4L2_STRUCT_REQUESTBUFFERS: return sizeof(struct v4l2_requestbuffers);
    case VR_V4L2_STRUCT_BUFFER: return sizeof(struct v4l2_buffer);
    case VR_V4L2_STRUCT_QUERYCTRL: return sizeof(struct v4l2_queryctrl);
    case VR_V4L2_STRUCT_CONTROL: return sizeof(struct v4l2_control);
    case VR_V4L2_STRUCT_INPUT: return sizeof(struct v4l2_input);
    case VR_V4L2_STRUCT_COUNT: break;
    }
    return 0;
}
