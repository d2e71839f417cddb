# The two commands of the README: `make demo` and `make test`. Each sets up what it needs.
PYTHON ?= python3
VENV ?= .venv
# On a Raspberry Pi, picamera2 and its numpy come from apt: `make PI=1 …` lets the venv see them.
comma := ,
VENV_FLAGS := $(if $(PI),--system-site-packages,)
EXTRAS := $(if $(PI),dev$(comma)pi,dev)
BIN := $(VENV)/bin

SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
# The browser tests drive Debian's own chromium (no browser download from the internet).
CHROMIUM ?= $(firstword $(wildcard /usr/bin/chromium /usr/bin/chromium-browser))

.PHONY: demo test test-long test-opencv lint bench clean chromium espeak-ng install-pi check-arm64

$(BIN)/activate:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11 or newer is needed"'
	@$(PYTHON) -m venv $(VENV_FLAGS) $(VENV) 2>/dev/null || { \
	  echo "python3-venv is missing: installing it with apt-get"; rm -rf $(VENV); \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) apt-get install -y -qq python3-venv && \
	  $(PYTHON) -m venv $(VENV_FLAGS) $(VENV); }

$(VENV)/.installed: $(BIN)/activate pyproject.toml
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[$(EXTRAS)]'
	@touch $@

# A whole game on the synthetic table through camera, tracker, buttons, engine, store and
# page, served live at http://localhost:8000/ (e.g. DEMO_ARGS="--edition rollecate").
DEMO_ARGS ?=
demo: $(VENV)/.installed
	$(BIN)/companion demo --progress $(DEMO_ARGS)

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

chromium:
	@$(if $(CHROMIUM),true,echo "chromium is missing: installing it with apt-get" && \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium)

# The table's voice (`companion demo --speak`, [speech] on); its tests render WAV files.
espeak-ng:
	@command -v espeak-ng >/dev/null || { echo "espeak-ng is missing: installing it with apt-get" && \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq espeak-ng; }

# The slow tests (whole demo games, killed services) spread over every core: `-n auto`.
# Then the vision tests again on the oldest and newest OpenCV the code must run on. Tests
# marked `long` (more seeds, editions and arrangements of a check kept here once or twice)
# are left to `make test-long`, to keep CI under 20 minutes on 2 cores.
test: lint chromium espeak-ng
	$(BIN)/pytest -n auto --dist worksteal -m "not long"
	$(MAKE) --no-print-directory test-opencv

# The long sweeps `make test` leaves out: every tripped demo game, every solo seed, a demo
# killed six times, every edition's record replayed, every panel arrangement (about 3
# minutes on 2 idle cores).
test-long: $(VENV)/.installed chromium espeak-ng
	$(BIN)/pytest -n auto -m long

# The code runs on OpenCV 4.8 to 5.x, but pyproject pins the wheel below 4.12 for the Pi's
# numpy 1 (see the README): each version here gets a venv of its own, .venv-opencv-VERSION,
# holding only that OpenCV and its numpy (4.x the numpy 1 it was built for; 5.x numpy 2, over
# pyproject's pin on purpose, said in one line) and seeing everything else, the project
# included, through a .pth file naming make test's own venv (its own packages come first on
# the path, so its OpenCV and numpy are the ones imported). It runs the vision tests (the
# camera's readers end to end, the real photographs' floors included). The longest sweeps
# of synthetic tables (arrangements of the switching board's panels, a whole stand-in deck
# taught, hard tables with dice on cards, real dice on cards, an enrolled deck's touching
# railway) run once, in `make test`'s own venv, to keep CI under 20 minutes on 2 cores; their
# shorter siblings in the same files run on every version.
OPENCV_VERSIONS ?= 4.8.1.78 5.0.0.93
OPENCV_ONCE := not test_every_arrangement_of_the_panels_is_read and not test_the_whole_stand_in_deck_is_taught \
  and not test_hard_tables_with_dice_on_cards_read_them and not test_real_dice_on_cards_are_read_or_asked \
  and not test_a_railway_of_touching_cards_of_an_enrolled_printed_deck_is_read
PURELIB := import sysconfig; print(sysconfig.get_path("purelib"))
test-opencv: $(VENV)/.installed
	@set -e; for v in $(OPENCV_VERSIONS); do \
	  venv=.venv-opencv-$$v; \
	  if [ ! $$venv/.installed -nt $(VENV)/.installed ]; then \
	    rm -rf $$venv; $(PYTHON) -m venv $$venv; \
	    case $$v in 5.*) echo "== OpenCV $$v brings numpy 2 over pyproject's pin for the Pi (numpy 1): on purpose, to test the code on it";; esac; \
	    $$venv/bin/pip install --quiet --disable-pip-version-check --no-deps "opencv-python-headless==$$v" \
	      "$$(case $$v in 4.*) echo "numpy<2";; *) echo "numpy>=2";; esac)"; \
	    echo "import site; site.addsitedir('$$(realpath $$($(BIN)/python -c '$(PURELIB)'))')" \
	      > "$$($$venv/bin/python -c '$(PURELIB)')/project-venv.pth"; \
	    touch $$venv/.installed; \
	  fi; \
	  echo "== the vision tests on OpenCV $$($$venv/bin/python -c 'import cv2; print(cv2.__version__)')"; \
	  $$venv/bin/python -m pytest -n auto --dist worksteal -p no:cacheprovider -m "not browser and not long" -k "$(OPENCV_ONCE)" tests/vision tests/caboose/vision; \
	done

bench: $(VENV)/.installed
	$(BIN)/python bench/bench_simulate.py
	$(BIN)/python bench/bench_web.py
	$(BIN)/python bench/bench_vision.py
	$(BIN)/python bench/bench_pips.py

clean:
	rm -rf $(VENV) .venv-opencv-* .pytest_cache .ruff_cache .hypothesis tests/artifacts

# The Pi's architecture, emulated (not part of `make test`: about 40 minutes here, see the
# README): an arm64 Debian root (debootstrap, qemu-user-static) with the project installed
# by install-pi.sh, its vision tests and a headless demo of each game run in it.
check-arm64:
	$(SUDO) scripts/check-arm64.sh

# On a Raspberry Pi: the service, its user, venv (--system-site-packages), config and unit.
install-pi:
	$(SUDO) scripts/install-pi.sh
