// The registry of sort engine providers (sort_engine.hpp).
#include "runtime/sort_engine.hpp"

#include "runtime/engine_registry.hpp"

namespace weft::detail {

SortEngineRegistration::SortEngineRegistration(SortEngineProvider provider) { EngineRegistry<SortEngine>::add(provider); }

SortEngine* sort_engine(DeviceImpl& device) { return EngineRegistry<SortEngine>::find(device); }

}  // namespace weft::detail
