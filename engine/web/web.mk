# Rokade in the browser (engine/web/README.md), included by the Makefile.
# `make web` builds build/web/: the engine compiled to WebAssembly twice
# (threads, and single-threaded as the fallback) from the native LIB_SRC, the
# rules module, and the page with its board from node_modules. `make serve`
# serves it with the headers the threads build needs; `make web-test` runs
# the headless browser test (tests/web.test.mjs under engine/web/).
WEB_DIR   := engine/web
WEB_OUT   := build/web
WEB_NODE  := $(WEB_DIR)/node_modules
EMCC      ?= emcc
# Debian's emcc finds acorn (for its JS optimiser) only with this.
WEB_ENV   := NODE_PATH=/usr/share/nodejs
# -msimd128: WebAssembly SIMD (every current browser), the net's 8-lane path
# in eval/nnue.c and the compiler's vector loops.
WEB_CFLAGS := -O3 -DNDEBUG -msimd128 $(CSTD) $(WARN) -MMD -MP
WEB_ST_OBJ := $(LIB_SRC:%.c=build/wasm-st/%.o) build/wasm-st/eval/nnue_embed.o
WEB_MT_OBJ := $(LIB_SRC:%.c=build/wasm-mt/%.o) build/wasm-mt/eval/nnue_embed.o
WEB_RULES_OBJ := $(filter build/wasm-st/movegen/%,$(WEB_ST_OBJ)) build/wasm-st/search/level.o \
                 build/wasm-st/$(WEB_DIR)/rules.o
WEB_LINK  := -O3 -sMODULARIZE=1 -sEXPORTED_RUNTIME_METHODS=ccall,cwrap,UTF8ToString --no-entry
WEB_ENGINE_EXPORTS := -sEXPORTED_FUNCTIONS=_web_init,_web_command \
  -sEXPORTED_RUNTIME_METHODS=ccall,cwrap,UTF8ToString,FS
# The rules module's functions (rules.c), as emcc's comma-separated list.
WEB_RULES_FUNCS := rules_init rules_new_game rules_error rules_legal rules_play rules_fen \
  rules_state rules_in_check rules_side rules_can_mate rules_level_full rules_elo_min \
  rules_elo_max rules_elo_points rules_elo_point rules_elo_point_strength rules_level_strength
WEB_EMPTY :=
WEB_COMMA := ,
WEB_RULES_EXPORTS := -sEXPORTED_FUNCTIONS=$(subst $(WEB_EMPTY) $(WEB_EMPTY),$(WEB_COMMA),$(strip $(WEB_RULES_FUNCS:%=_%)))
WEB_PAGE  := $(wildcard $(WEB_DIR)/page/*.html $(WEB_DIR)/page/*.css $(WEB_DIR)/page/*.js) \
             $(WEB_DIR)/engine-worker.js
WEB_BUILT := $(WEB_OUT)/rokade-st.js $(WEB_OUT)/rokade-mt.js $(WEB_OUT)/rules.js \
             $(WEB_OUT)/.page $(WEB_OUT)/vendor/cm-chessboard/.copied

.PHONY: web serve web-test web-tools

web: web-tools
	$(MAKE) $(WEB_BUILT)

# emscripten and chromium from Debian, the node packages from the lockfile:
# .ci/provision installs them; here they are only checked.
web-tools:
	@command -v $(EMCC) >/dev/null 2>&1 && command -v chromium >/dev/null 2>&1 || \
	 { echo "error: emscripten or chromium is missing: run sh .ci/provision (as root), or apt-get install emscripten chromium"; exit 1; }
	@test -f $(WEB_NODE)/.package-lock.json -a $(WEB_NODE)/.package-lock.json -nt $(WEB_DIR)/package-lock.json || \
	 { echo "error: engine/web's node packages are missing or older than package-lock.json: run sh .ci/provision (npm ci in engine/web)"; exit 1; }

build/wasm-st/%.o: %.c
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) -c -o $@ $<

build/wasm-mt/%.o: %.c
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) -pthread -c -o $@ $<

# The built-in net: the C source the native build generates (Makefile).
build/wasm-st/eval/nnue_embed.o: $(BUILD)/eval/nnue_embed.c
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) -I. -c -o $@ $<

build/wasm-mt/eval/nnue_embed.o: $(BUILD)/eval/nnue_embed.c
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) -I. -pthread -c -o $@ $<

-include $(WEB_ST_OBJ:.o=.d) $(WEB_MT_OBJ:.o=.d) build/wasm-st/$(WEB_DIR)/rules.d \
         build/wasm-st/$(WEB_DIR)/engine_web.d build/wasm-mt/$(WEB_DIR)/engine_web.d

# Single-threaded: runs in a worker (or node, for the bench check); every
# search is finite (search/thread.h, SEARCH_INLINE).
$(WEB_OUT)/rokade-st.js: $(WEB_ST_OBJ) build/wasm-st/$(WEB_DIR)/engine_web.o
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_LINK) $(WEB_ENGINE_EXPORTS) -sEXPORT_NAME=RokadeEngine \
	  -sENVIRONMENT=web,worker,node -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB -o $@ $^

# Threads (Lazy SMP): needs SharedArrayBuffer, so a cross-origin isolated
# page. The pool covers the page's 4 search threads plus the 3 helpers that
# clear the hash; STRICT=2 makes pthread_create fail instead of hang past it.
$(WEB_OUT)/rokade-mt.js: $(WEB_MT_OBJ) build/wasm-mt/$(WEB_DIR)/engine_web.o
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_LINK) $(WEB_ENGINE_EXPORTS) -sEXPORT_NAME=RokadeEngine -pthread \
	  -sENVIRONMENT=web,worker -sPTHREAD_POOL_SIZE=8 -sPTHREAD_POOL_SIZE_STRICT=2 \
	  -sINITIAL_MEMORY=256MB -o $@ $^

$(WEB_OUT)/rules.js: $(WEB_RULES_OBJ)
	@mkdir -p $(dir $@)
	$(WEB_ENV) $(EMCC) $(WEB_LINK) $(WEB_RULES_EXPORTS) -sEXPORT_ES6=1 -sEXPORT_NAME=createRules \
	  -sENVIRONMENT=web -sALLOW_MEMORY_GROWTH=1 -o $@ $^

$(WEB_OUT)/.page: $(WEB_PAGE)
	@mkdir -p $(WEB_OUT)
	cp $(WEB_PAGE) $(WEB_OUT)/
	@touch $@

$(WEB_OUT)/vendor/cm-chessboard/.copied: $(WEB_DIR)/package-lock.json
	rm -rf $(WEB_OUT)/vendor/cm-chessboard && mkdir -p $(WEB_OUT)/vendor/cm-chessboard
	cp -r $(WEB_NODE)/cm-chessboard/src $(WEB_NODE)/cm-chessboard/assets \
	  $(WEB_NODE)/cm-chessboard/LICENSE $(WEB_OUT)/vendor/cm-chessboard/
	@touch $@

WEB_PORT ?= 8960
serve: web
	$(PYTHON) $(WEB_DIR)/serve.py $(WEB_OUT) $(WEB_PORT)

web-test: web $(EXE)
	cd $(WEB_DIR) && ROKADE=../../$(EXE) WEB_OUT=../../$(WEB_OUT) node --test tests/
