// bad_misaligned.cu (must fail): a float loaded from an address that is not
// a multiple of 4.
// The learner's packet is a 1-byte tag followed by n floats, copied to the
// device in one piece; the kernel skips the tag by casting packet + 1 to a
// float pointer. A GPU load of 4 bytes must be 4-byte aligned: the kernel
// fails with a misaligned address error (x86 would have allowed it, which
// is why the bug survives on the CPU). The emulator's memcheck reports the
// misaligned access.
// Fix: pad the tag to 4 bytes, or memcpy the floats out of the bytes.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call)                                                         \
    do {                                                                    \
        cudaError_t err_ = (call);                                          \
        if (err_ != cudaSuccess) {                                          \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,   \
                    #call, cudaGetErrorName(err_));                         \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

// out[i] = 2 * the i-th float after the packet's 1-byte tag.
__global__ void doublePayload(const unsigned char *packet, float *out, int n)
{
    const float *payload = (const float *)(packet + 1);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * payload[i];  // BUG: payload is 1 byte past a 4-byte boundary
}

int main()
{
    const int n = 256;
    size_t bytes = 1 + n * sizeof(float);
    unsigned char *h_packet = (unsigned char *)malloc(bytes);
    float h_out[n];
    h_packet[0] = 42;  // the tag
    for (int i = 0; i < n; i++) {
        float v = (float)i;
        memcpy(h_packet + 1 + i * sizeof(float), &v, sizeof v);
    }
    unsigned char *packet;
    float *out;
    CHECK(cudaMalloc(&packet, bytes));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    CHECK(cudaMemcpy(packet, h_packet, bytes, cudaMemcpyHostToDevice));
    doublePayload<<<(n + 127) / 128, 128>>>(packet, out, n);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("doublePayload: FAIL: %s\n", cudaGetErrorName(err));
        return 1;
    }
    CHECK(cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h_out[i] != 2.0f * i;
    printf("doublePayload: %s n=%d, %d wrong\n", bad ? "FAIL" : "PASS", n, bad);
    CHECK(cudaFree(packet));
    CHECK(cudaFree(out));
    free(h_packet);
    return bad ? 1 : 0;
}
