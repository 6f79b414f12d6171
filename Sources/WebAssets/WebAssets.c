// SPDX-License-Identifier: MIT
// The table of embedded files. Each file is pulled in with C23 #embed, relative to this file;
// the build tracks them as dependencies, so an edited page rebuilds the table.

#include "WebAssets.h"

static const unsigned char display_html[] = {
#embed "files/display.html"
};
static const unsigned char remote_html[] = {
#embed "files/remote.html"
};
static const unsigned char judge_html[] = {
#embed "files/judge.html"
};
static const unsigned char style_css[] = {
#embed "files/style.css"
};
static const unsigned char common_js[] = {
#embed "files/common.js"
};
static const unsigned char display_js[] = {
#embed "files/display.js"
};
static const unsigned char remote_js[] = {
#embed "files/remote.js"
};
static const unsigned char judge_js[] = {
#embed "files/judge.js"
};
static const unsigned char exercises_json[] = {
#embed "files/exercises.json"
};
static const unsigned char exercises_license[] = {
#embed "files/exercises-LICENSE.txt"
};

#define HTML "text/html; charset=utf-8"
#define CSS "text/css; charset=utf-8"
#define JAVASCRIPT "text/javascript; charset=utf-8"
#define JSON "application/json"
#define TEXT "text/plain; charset=utf-8"
#define FILE_ENTRY(path, array, type) {path, array, sizeof(array), type}

static const WebAsset table[] = {
    FILE_ENTRY("/", display_html, HTML),
    FILE_ENTRY("/remote", remote_html, HTML),
    FILE_ENTRY("/judge", judge_html, HTML),
    FILE_ENTRY("/assets/style.css", style_css, CSS),
    FILE_ENTRY("/assets/common.js", common_js, JAVASCRIPT),
    FILE_ENTRY("/assets/display.js", display_js, JAVASCRIPT),
    FILE_ENTRY("/assets/remote.js", remote_js, JAVASCRIPT),
    FILE_ENTRY("/assets/judge.js", judge_js, JAVASCRIPT),
    FILE_ENTRY("/assets/exercises.json", exercises_json, JSON),
    FILE_ENTRY("/assets/exercises-LICENSE.txt", exercises_license, TEXT),
};

size_t web_asset_count(void) { return sizeof(table) / sizeof(table[0]); }

WebAsset web_asset(size_t index) {
  if (index >= web_asset_count()) {
    return (WebAsset){NULL, NULL, 0, NULL};
  }
  return table[index];
}
