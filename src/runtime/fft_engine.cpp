// The registry of FFT engine providers (fft_engine.hpp).
#include "runtime/fft_engine.hpp"

#include "runtime/engine_registry.hpp"

namespace weft::detail {

FftEngineRegistration::FftEngineRegistration(FftEngineProvider provider) { EngineRegistry<FftEngine>::add(provider); }

FftEngine* fft_engine(DeviceImpl& device) { return EngineRegistry<FftEngine>::find(device); }

}  // namespace weft::detail
