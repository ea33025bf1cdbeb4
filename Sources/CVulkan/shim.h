// The part of the Vulkan API that Swift cannot import by itself: the function-like version
// macros, re-exposed as static inline functions. Nothing else belongs here.
#ifndef VRENDER_CVULKAN_SHIM_H
#define VRENDER_CVULKAN_SHIM_H

#include <stdint.h>
#include <vulkan/vulkan.h>

/// VK_MAKE_API_VERSION(variant, major, minor, patch).
static inline uint32_t vr_vk_make_api_version(uint32_t variant, uint32_t major, uint32_t minor, uint32_t patch) {
    return VK_MAKE_API_VERSION(variant, major, minor, patch);
}
/// VK_API_VERSION_MAJOR(version).
static inline uint32_t vr_vk_api_version_major(uint32_t version) { return VK_API_VERSION_MAJOR(version); }
/// VK_API_VERSION_MINOR(version).
static inline uint32_t vr_vk_api_version_minor(uint32_t version) { return VK_API_VERSION_MINOR(version); }
/// VK_API_VERSION_PATCH(version).
static inline uint32_t vr_vk_api_version_patch(uint32_t version) { return VK_API_VERSION_PATCH(version); }
/// VK_API_VERSION_1_0: what vrender asks for; its shaders need nothing newer.
static inline uint32_t vr_vk_api_version_1_0(void) { return VK_API_VERSION_1_0; }

// Handles cross into Swift as pointers on 64-bit platforms (OpaquePointer?), the only
// platforms vrender builds for.
_Static_assert(sizeof(VkBuffer) == sizeof(void *), "non-dispatchable handles are pointers on 64-bit");

#endif
