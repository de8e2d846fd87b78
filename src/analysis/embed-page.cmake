# embed-page.cmake -DIN=page.html -DOUT=page.c [-DNAME=var]: a page
# template as a C string (NAME, default tl_page_template, timeline-impl.h;
# an_html_page_template, html-hist.c), so that the page is edited as HTML
# and trax needs no file at run time. The comment /*TRAX-PROLOGUE*/ in the
# page becomes page-prologue.js (the script's start, the same in every page).
if(NOT NAME)
  set(NAME tl_page_template)
endif()
get_filename_component(src ${IN} NAME)
get_filename_component(dir ${CMAKE_SCRIPT_MODE_FILE} DIRECTORY)
file(READ ${IN} text)
file(READ ${dir}/page-prologue.js prologue)
string(REPLACE "/*TRAX-PROLOGUE*/\n" "${prologue}" text "${text}")
file(WRITE ${OUT}.page "${text}")
file(READ ${OUT}.page hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT} "/* generated from ${src} by embed-page.cmake */\n"
  "extern const char ${NAME}[];\n"
  "const char ${NAME}[] = {${bytes} 0};\n")
