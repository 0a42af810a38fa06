// memcpy_pitch.cu: pitched 2-D and 3-D memory as CUDA programs use it:
//   cudaMallocPitch (pitch >= the row's bytes), cudaMemcpy2D host to device,
//   device to device (a sub-rectangle) and back, a kernel walking rows by
//   the pitch, cudaMemset2D; cudaMalloc3D, make_cudaExtent, make_cudaPos,
//   make_cudaPitchedPtr, cudaMemcpy3D of a whole volume and of a box at an
//   offset, cudaMemset3D; and the errors: a width above the pitch is
//   cudaErrorInvalidPitchValue. Sizes are odd (rows of 37 floats), every
//   element is checked against the host.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                            \
    do {                                                                                       \
        cudaError_t err_ = (call);                                                             \
        if (err_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(err_)); \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

// a[r][c] = 2 a[r][c] + r, rows `pitch` bytes apart
__global__ void scaleRows(float *a, size_t pitch, int w, int h)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (c < w && r < h) {
        float *row = (float *)((char *)a + r * pitch);
        row[c] = 2 * row[c] + r;
    }
}

// v[z][y][x] += 1000 z in a pitched volume
__global__ void addDepth(cudaPitchedPtr v, int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    if (x < w && y < h && z < d) {
        char *slice = (char *)v.ptr + z * v.pitch * v.ysize;
        ((int *)(slice + y * v.pitch))[x] += 1000 * z;
    }
}

static int failures = 0;
static void report(const char *name, bool ok)
{
    printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
    failures += !ok;
}

int main()
{
    const int W = 37, H = 23;
    std::vector<float> h(W * H), back(W * H);
    for (int i = 0; i < W * H; i++) h[i] = (float)(i % 101);

    float *d = nullptr, *d2 = nullptr;
    size_t pitch = 0, pitch2 = 0;
    CHECK(cudaMallocPitch((void **)&d, &pitch, W * sizeof(float), H));
    CHECK(cudaMallocPitch(&d2, &pitch2, W * sizeof(float), H));   // the template form
    report("cudaMallocPitch: pitch at least the row's bytes", pitch >= W * sizeof(float) && pitch2 >= W * sizeof(float));
    CHECK(cudaMemcpy2D(d, pitch, h.data(), W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    scaleRows<<<dim3((W + 15) / 16, (H + 7) / 8), dim3(16, 8)>>>(d, pitch, W, H);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2D(back.data(), W * sizeof(float), d, pitch, W * sizeof(float), H, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++) ok &= back[r * W + c] == 2 * h[r * W + c] + r;
    report("cudaMemcpy2D there and back around a kernel on pitched rows", ok);

    // device to device: rows 3..12, columns 5..24 of d into the corner of d2 (zeroed by cudaMemset2D)
    CHECK(cudaMemset2D(d2, pitch2, 0, W * sizeof(float), H));
    CHECK(cudaMemcpy2D(d2, pitch2, (char *)d + 3 * pitch + 5 * sizeof(float), pitch, 20 * sizeof(float), 10,
                       cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy2D(back.data(), W * sizeof(float), d2, pitch2, W * sizeof(float), H, cudaMemcpyDeviceToHost));
    ok = true;
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++) {
            float want = r < 10 && c < 20 ? 2 * h[(r + 3) * W + c + 5] + (r + 3) : 0.0f;
            ok &= back[r * W + c] == want;
        }
    report("cudaMemset2D, then cudaMemcpy2D of a sub-rectangle device to device", ok);

    report("a width above the pitch is cudaErrorInvalidPitchValue",
           cudaMemcpy2D(d2, pitch2, d, pitch, pitch + 4, 2, cudaMemcpyDeviceToDevice) == cudaErrorInvalidPitchValue);
    cudaGetLastError();   // clear it
    CHECK(cudaFree(d));
    CHECK(cudaFree(d2));

    // 3-D: a volume of 19 x 7 x 5 ints
    const int X = 19, Y = 7, Z = 5;
    std::vector<int> vol(X * Y * Z), vback(X * Y * Z);
    for (int i = 0; i < X * Y * Z; i++) vol[i] = i;
    cudaExtent ext = make_cudaExtent(X * sizeof(int), Y, Z);
    cudaPitchedPtr dv;
    CHECK(cudaMalloc3D(&dv, ext));
    report("cudaMalloc3D: pitch, xsize and ysize", dv.pitch >= X * sizeof(int) && dv.xsize == X * sizeof(int) && dv.ysize == Y);
    cudaMemcpy3DParms up = {};
    up.srcPtr = make_cudaPitchedPtr(vol.data(), X * sizeof(int), X, Y);
    up.dstPtr = dv;
    up.extent = ext;
    up.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&up));
    addDepth<<<dim3((X + 31) / 32, Y, Z), 32>>>(dv, X, Y, Z);
    CHECK(cudaGetLastError());
    cudaMemcpy3DParms down = {};
    down.srcPtr = dv;
    down.dstPtr = make_cudaPitchedPtr(vback.data(), X * sizeof(int), X, Y);
    down.extent = ext;
    down.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&down));
    ok = true;
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++) ok &= vback[(z * Y + y) * X + x] == vol[(z * Y + y) * X + x] + 1000 * z;
    report("cudaMemcpy3D of a volume there and back around a kernel", ok);

    // a box of 4 x 3 x 2 from (x 2, y 1, z 1) of the volume into (x 10, y 4, z 3) of the host copy
    std::vector<int> box = vback;
    cudaMemcpy3DParms part = {};
    part.srcPtr = dv;
    part.srcPos = make_cudaPos(2 * sizeof(int), 1, 1);
    part.dstPtr = make_cudaPitchedPtr(box.data(), X * sizeof(int), X, Y);
    part.dstPos = make_cudaPos(10 * sizeof(int), 4, 3);
    part.extent = make_cudaExtent(4 * sizeof(int), 3, 2);
    part.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&part));
    ok = true;
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++) {
                bool in = x >= 10 && x < 14 && y >= 4 && y < 7 && z >= 3 && z < 5;
                int want = in ? vback[((z - 2) * Y + (y - 3)) * X + (x - 8)] : vback[(z * Y + y) * X + x];
                ok &= box[(z * Y + y) * X + x] == want;
            }
    report("cudaMemcpy3D of a box at offsets (make_cudaPos)", ok);

    CHECK(cudaMemset3D(dv, 0x01, make_cudaExtent(X * sizeof(int), Y, 2)));   // the first 2 slices
    CHECK(cudaMemcpy3D(&down));
    ok = true;
    for (int z = 0; z < Z; z++)
        for (int i = 0; i < X * Y; i++) ok &= vback[z * X * Y + i] == (z < 2 ? 0x01010101 : vol[z * X * Y + i] + 1000 * z);
    report("cudaMemset3D of two slices", ok);
    CHECK(cudaFree(dv.ptr));
    printf("memcpy_pitch: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
