"""tanbo_tools.vm, the one way code runs under the MicroPython unix port."""

import pytest

from tanbo.position import quote
from tanbo_tools import board_time, vm


def test_heap_sizes_parse_and_grow():
    assert [vm.heap_bytes(t) for t in ("65536", "64K", "64k", "1M", "16K", "64M")] == \
        [65536, 65536, 65536, 1 << 20, 16384, 64 << 20]
    assert vm.larger("64K") == "96K" and vm.larger("1M") == "1536K"
    # "064K" and "0x10000": the port reads them with strtol(..., 0), as octal (52K) and hex.
    for bad in ("", "K", "lots", "-5K", "+64K", "1.5M", "١٩K", "64KB", " 96K", "96K ", "064K", "0x10000",
                "64wK", "15K", "16383", "65M", "9" * 400, None):
        with pytest.raises(ValueError) as exc:
            vm.heap_bytes(bad)
        assert quote(str(bad)) in str(exc.value) and "16K to 64M" in str(exc.value)  # a long one cut


def test_heap_sizes_mean_to_the_port_what_they_mean_to_the_tools(micropython_exe):
    for text in ("16K", "96k", "100000", "1M"):
        out = vm.run_json(micropython_exe, ["-c", "import gc; print(gc.mem_free() + gc.mem_alloc())"], text)
        # The port keeps a little of the heap for its own tables.
        assert 0.97 * vm.heap_bytes(text) <= out <= vm.heap_bytes(text), text


def test_run_json_reads_the_last_line(micropython_exe):
    assert vm.run_json(micropython_exe, ["-c", "print('warming up'); print('{\"a\": [1, 2]}')"]) == {"a": [1, 2]}


def test_run_json_failure_names_the_vm_and_its_error(micropython_exe):
    with pytest.raises(vm.VMError) as exc:
        vm.run_json(micropython_exe, ["-c", "raise ValueError('boom')"])
    assert "micropython failed (exit 1)" in str(exc.value) and "ValueError: boom" in str(exc.value)
    with pytest.raises(vm.VMError):  # ran, but printed no JSON
        vm.run_json(micropython_exe, ["-c", "print('hello')"])


def test_run_json_grows_the_heap_once_on_memory_error(micropython_exe):
    code = ["-c", "b = bytearray(80 * 1024); print('{\"n\": %d}' % len(b))"]
    with pytest.raises(vm.VMError) as exc:
        vm.run_json(micropython_exe, code, heap="64K")
    assert "MemoryError" in str(exc.value)
    assert vm.run_json(micropython_exe, code, heap="64K", grow=True) == {"n": 80 * 1024, "heap": "96K"}


def test_board_time_command_refuses_bad_sizes(capsys):
    for sizes in ("3,1", "1", "a,b", "-1,2"):
        with pytest.raises(SystemExit) as exc:
            board_time.main(["work.py", "--n=" + sizes])
        assert exc.value.code == 2 and repr(sizes) in capsys.readouterr().err
