//! Reading results back from the device: mapping a buffer and waiting for it, natively and
//! in the browser.

use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};

use crate::error::{Error, Result};

/// The value of a future that is ready at once (native devices pop error scopes at once);
/// `None` if it is not (the browser answers later, and reports errors itself).
pub(crate) fn ready<T>(future: impl std::future::Future<Output = T>) -> Option<T> {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(Waker::noop());
    match future.as_mut().poll(&mut context) {
        Poll::Ready(value) => Some(value),
        Poll::Pending => None,
    }
}

/// The bytes of a `MAP_READ` buffer, once the GPU is done with it.
pub(crate) async fn read_back(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Result<Vec<u8>> {
    map_read(device, buffer).await?;
    let data = buffer
        .get_mapped_range(..)
        .map_err(|e| Error::Readback(e.to_string()))?
        .to_vec();
    buffer.unmap();
    Ok(data)
}

/// Maps `buffer` for reading and waits until it is mapped.
async fn map_read(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Result<()> {
    type Shared = Arc<Mutex<(Option<Result<(), wgpu::BufferAsyncError>>, Option<Waker>)>>;
    let shared: Shared = Arc::default();
    let callback_state = shared.clone();
    buffer.map_async(wgpu::MapMode::Read, .., move |result| {
        let mut state = callback_state.lock().unwrap_or_else(|p| p.into_inner());
        state.0 = Some(result);
        if let Some(waker) = state.1.take() {
            waker.wake();
        }
    });
    // Native devices deliver map callbacks only when polled; the browser does it by itself.
    #[cfg(not(target_arch = "wasm32"))]
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| Error::Readback(e.to_string()))?;
    #[cfg(target_arch = "wasm32")]
    let _ = device;
    std::future::poll_fn(|cx| {
        let mut state = shared.lock().unwrap_or_else(|p| p.into_inner());
        match state.0.take() {
            Some(result) => Poll::Ready(result.map_err(|e| Error::Readback(e.to_string()))),
            None => {
                state.1 = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    })
    .await
}
