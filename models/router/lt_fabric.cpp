#include "models/router/lt_fabric.h"

#include <algorithm>
#include <utility>

#include "models/router/router_lt.h"

namespace angara {

LtFabric::LtFabric(std::vector<RouterLt*> routers, std::vector<EjectionEnd*> endpoints,
                   WakeCalendar& calendar, bool buffers)
    : m_routers(std::move(routers)), m_endpoints(std::move(endpoints)), m_calendar(calendar) {
  if (buffers) {
    std::size_t per_router = 0;
    for (const RouterLt* router : m_routers) {
      per_router = std::max(per_router, router->port_vcs());
    }
    m_buffers = std::make_unique<LtBuffers>(m_routers.size(), per_router);
  }
  for (RouterLt* router : m_routers) router->set_fabric(*this);
}

}  // namespace angara
