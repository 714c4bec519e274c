# cmake -DTOOL=path/to/angara-sim -DNAME=angara-sim -DSUMMARY=... -DVERSION=... -DOUT=file.1
#       -DCOMMANDS="run;config;..." -DDOCS=installed/doc/dir -DDATA=installed/data/dir
#       -P man_page.cmake
# A man page from the tool's own --help and each command's: the help is the one reference, so
# the page cannot fall behind it. Every line goes out verbatim (no-fill), escaped for roff.
function(help_of out)
  execute_process(COMMAND ${TOOL} ${ARGN} --help OUTPUT_VARIABLE text RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${TOOL} ${ARGN} --help exited ${status}")
  endif()
  string(REPLACE "\\" "\\e" text "${text}")
  # A line starting with . or ' would be a roff request: \& keeps it text.
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

string(TOUPPER ${NAME} upper)
help_of(usage)
set(page ".TH ${upper} 1 \"\" \"angara-tlm ${VERSION}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\n${NAME} \\- ${SUMMARY}\n.SH DESCRIPTION\n.nf\n${usage}.fi\n")
foreach(command IN LISTS COMMANDS)
  help_of(help ${command})
  string(TOUPPER ${command} title)
  string(APPEND page ".SH ${title}\n.nf\n${help}.fi\n")
endforeach()
string(APPEND page ".SH SEE ALSO\nThe documentation in ${DOCS} (README.md, docs/) and the ")
string(APPEND page "example configs in ${DATA}/configs.\n")
file(WRITE ${OUT} "${page}")
