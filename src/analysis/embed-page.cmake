# embed-page.cmake -DIN=page.html -DOUT=page.c: the timeline's page
# template as a C string (tl_page_template, timeline-impl.h), so that the
# page is edited as HTML and `trax timeline` needs no file at run time.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT} "/* generated from timeline-page.html by embed-page.cmake */\n"
  "extern const char tl_page_template[];\n"
  "const char tl_page_template[] = {${bytes} 0};\n")
