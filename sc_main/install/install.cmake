# cmake --install: the headers (include/angara-tlm, included as "models/core/packet.h"), the
# libraries, both tools, a CMake package (find_package(angara-tlm): angara::tlm, the whole model,
# and angara::<layer> for each library) and a pkg-config file (angara-tlm.pc). With RTL
# co-simulation (ANGARA_RTL) the verilated blocks and their transactors come with them.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Everything a program that builds and runs a machine links: the experiments and all below.
add_library(angara_tlm INTERFACE)
target_link_libraries(angara_tlm INTERFACE angara_experiments)

# With RTL co-simulation (ANGARA_RTL): the verilated blocks, and angara_rtl, which links them with
# their transactors (angara_rtl_transactor, a layer's library like the others).
set(rtl_blocks "")
set(rtl_libraries "")
if(ANGARA_RTL)
  set(rtl_blocks angara_rtl_reducer angara_rtl_vcup)
  set(rtl_libraries angara_rtl ${rtl_blocks})
endif()
get_property(libraries GLOBAL PROPERTY ANGARA_LIBRARIES)
list(APPEND libraries angara_systemc ${rtl_libraries} angara_tlm)
foreach(library IN LISTS libraries)
  string(REGEX REPLACE "^angara_" "" short ${library})
  set_target_properties(${library} PROPERTIES EXPORT_NAME ${short})
endforeach()

# verilate() gives its blocks the build's include directories; installed, they need none.
foreach(block IN LISTS rtl_blocks)
  get_target_property(dirs ${block} INTERFACE_INCLUDE_DIRECTORIES)
  list(FILTER dirs EXCLUDE REGEX "^/")
  set_target_properties(${block} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${dirs}")
endforeach()

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/angara-tlm)
install(TARGETS ${libraries} EXPORT angara-tlm-targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS angara-sim angara-sweep RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The plots of the statistics' tables (docs/STATS.md), as angara-plot-links and
# angara-plot-intervals.
install(PROGRAMS sc_main/plot_links.py DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME angara-plot-links)
install(PROGRAMS sc_main/plot_intervals.py DESTINATION ${CMAKE_INSTALL_BINDIR}
        RENAME angara-plot-intervals)
# The Python front end (docs/PYTHON.md) where Debian's python3 looks: the prefix's
# lib/python3/dist-packages (with the prefix /usr, on the path already).
install(DIRECTORY sc_main/python/angara_tlm DESTINATION lib/python3/dist-packages
        PATTERN "__pycache__" EXCLUDE)
# Without RTL co-simulation the transactors' headers have no library: only what the machine
# carries of them (rtl_stats.h, what they compared; rtl_recording.h, what they record) is
# installed of collectives/rtl.
set(no_rtl_headers "")
if(NOT ANGARA_RTL)
  set(no_rtl_headers REGEX "/collectives/rtl/" EXCLUDE)
  install(FILES collectives/rtl/rtl_stats.h collectives/rtl/rtl_recording.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/angara-tlm/collectives/rtl)
endif()
install(DIRECTORY models collectives workloads platform
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/angara-tlm FILES_MATCHING PATTERN "*.h"
        ${no_rtl_headers})
install(FILES LICENSE README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(EXPORT angara-tlm-targets NAMESPACE angara:: DESTINATION ${config_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/angara-tlm-config.cmake.in
                              ${PROJECT_BINARY_DIR}/angara-tlm-config.cmake
                              INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/angara-tlm-config-version.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/angara-tlm-config.cmake
              ${PROJECT_BINARY_DIR}/angara-tlm-config-version.cmake
        DESTINATION ${config_dir})

# The pkg-config file lists the static libraries in link order: each before those it uses.
set(link_order "")
function(angara_link_order target)
  if(NOT TARGET ${target} OR ${target} IN_LIST link_order)
    return()
  endif()
  get_target_property(type ${target} TYPE)
  get_target_property(used ${target} INTERFACE_LINK_LIBRARIES)
  list(REVERSE used)  # prepended one by one, they come out in their own order
  foreach(dependency IN LISTS used)
    if(dependency MATCHES "^angara_")
      angara_link_order(${dependency})
    endif()
  endforeach()
  if(type STREQUAL "STATIC_LIBRARY")
    list(PREPEND link_order ${target})
  endif()
  set(link_order ${link_order} PARENT_SCOPE)
endfunction()
angara_link_order(angara_tlm)
list(TRANSFORM link_order PREPEND "-l")
list(JOIN link_order " " ANGARA_PC_LIBS)
file(RELATIVE_PATH ANGARA_PC_TO_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" ANGARA_PC_TO_PREFIX "${ANGARA_PC_TO_PREFIX}")
# Built with MPI runs (ANGARA_MPI): OpenMPI's pkg-config module.
set(ANGARA_PC_MPI "")
if(ANGARA_MPI)
  set(ANGARA_PC_MPI " ompi-cxx")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/angara-tlm.pc.in ${PROJECT_BINARY_DIR}/angara-tlm.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/angara-tlm.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Man pages of both tools, made from their --help; the docs and the example configs.
set(man_pages "")
foreach(spec "angara-sim|simulate an Angara-class interconnect in SystemC/TLM-2.0|run;config;diagram;vcd-diff"
             "angara-sweep|run, collect and plot sweeps of angara-sim|plan;run;slurm;collect;plot")
  string(REPLACE "|" ";" spec "${spec}")
  list(GET spec 0 tool)
  list(GET spec 1 summary)
  list(SUBLIST spec 2 -1 commands)
  string(REPLACE ";" "\\;" commands "${commands}")
  set(page ${PROJECT_BINARY_DIR}/man/${tool}.1)
  add_custom_command(
    OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} -DTOOL=$<TARGET_FILE:${tool}> -DNAME=${tool} "-DSUMMARY=${summary}"
            -DVERSION=${PROJECT_VERSION} "-DCOMMANDS=${commands}" -DOUT=${page}
            -DDOCS=${CMAKE_INSTALL_FULL_DOCDIR} -DDATA=${CMAKE_INSTALL_FULL_DATADIR}/angara-tlm
            -P ${CMAKE_CURRENT_LIST_DIR}/man_page.cmake
    DEPENDS ${tool} ${CMAKE_CURRENT_LIST_DIR}/man_page.cmake
    COMMENT "Man page of ${tool} from its --help")
  list(APPEND man_pages ${page})
endforeach()
add_custom_target(man_pages ALL DEPENDS ${man_pages})
install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(DIRECTORY configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/angara-tlm/configs)

# A Debian package of all of it: cd build && cpack -G DEB (regress/install/deb_test.sh).
set(CPACK_PACKAGE_NAME angara-tlm)
set(CPACK_PACKAGE_VENDOR "angara-tlm")
set(CPACK_PACKAGE_CONTACT "angara-tlm developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "SystemC/TLM-2.0 architecture model of an Angara-class supercomputer interconnect")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The tools' shared libraries found by dpkg-shlibdeps; what the headers and the Python module
# need besides.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libsystemc-dev, libfmt-dev, libboost-program-options-dev, libtomlplusplus-dev, nlohmann-json3-dev, python3 (>= 3.11)")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-pandas, python3-matplotlib, gnuplot-nox")
include(CPack)
