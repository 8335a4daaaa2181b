//! The GPU side of the harness: opening the runtime, or saying why there is none. The
//! programs copy their data with `gtap::DeviceVec`.

use gtap::host::Gpu;
use gtap::host::cudarc::driver::{CudaSlice, DevicePtr, DeviceRepr};
use gtap::host::gpu_runtime::{GpuConfig, GpuRuntime};

/// What the flags ask of the GPU.
pub struct Want {
    /// `--cpu-only`: do not open it.
    pub cpu_only: bool,
    /// `--gpu-only` or `--profile`: without a GPU there is nothing to do.
    pub required: bool,
    /// `--profile` or an ablation `--scheduler`: load the PTX with the lab kernels.
    pub lab: bool,
    /// `--ptx FILE`: load this PTX instead.
    pub ptx: Option<std::path::PathBuf>,
}

/// The GPU runtime under `config`, or `None` (with a line saying why) where the flags skip
/// the GPU or there is none and CPU rows can still run.
pub fn open(want: &Want, config: GpuConfig) -> Result<Option<GpuRuntime>, String> {
    if want.cpu_only {
        eprintln!("--cpu-only: the GPU is not used");
        return Ok(None);
    }
    let gpu = match Gpu::new(0) {
        Ok(gpu) => gpu,
        Err(e) if want.required => {
            return Err(format!("no GPU ({e}); --gpu-only and --profile need one"));
        }
        Err(e) => {
            eprintln!("no GPU ({e}); CPU baselines only");
            return Ok(None);
        }
    };
    eprintln!("GPU: {}", gpu.props());
    eprintln!("GPU configuration: {config:?}");
    let file;
    let ptx = if let Some(path) = &want.ptx {
        file =
            std::fs::read_to_string(path).map_err(|e| format!("--ptx {}: {e}", path.display()))?;
        eprintln!("PTX: {}", path.display());
        file.as_str()
    } else if want.lab {
        gtap_examples::PTX_LAB
    } else {
        gtap_examples::PTX
    };
    GpuRuntime::new(gpu, ptx, config)
        .map(Some)
        .map_err(|e| format!("GPU runtime: {e}"))
}

/// Device memory holding `data`: for the mixed sorts, whose block tasks take raw views
/// (`gtap_examples::buf`); the other programs copy their data with `gtap::DeviceVec`.
pub fn upload<T: DeviceRepr>(gpu: &Gpu, data: &[T]) -> CudaSlice<T> {
    gpu.stream().clone_htod(data).expect("upload")
}

/// Copies `data` into the device buffer `dst` (as long at least).
pub fn upload_into<T: DeviceRepr>(gpu: &Gpu, data: &[T], dst: &mut CudaSlice<T>) {
    gpu.stream().memcpy_htod(data, dst).expect("upload");
}

/// `src` copied into `dst` (as long), the stream synchronized: the data is there on return.
pub fn download_into<T: DeviceRepr>(gpu: &Gpu, src: &CudaSlice<T>, dst: &mut [T]) {
    gpu.stream().memcpy_dtoh(src, dst).expect("download");
    gpu.stream()
        .synchronize()
        .expect("synchronize after the download");
}

/// The device address of `s`, for a raw view.
pub fn dptr<T>(gpu: &Gpu, s: &CudaSlice<T>) -> u64 {
    let (p, _sync) = s.device_ptr(gpu.stream());
    p
}
