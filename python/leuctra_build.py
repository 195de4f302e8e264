"""leuctra_build.py - a PEP 517 build backend for python/leuctra with the standard library only,
so that `pip install ./python` needs no network and no setuptools: the wheel holds the package's
.py files and py.typed and, when `make` has built it, ../build/libleuctra.so (then the wheel is
tagged for this platform).  Editable installs (pip install -e) add a .pth file pointing here.

The version is the library's: the VERSION line of ../Makefile, which the C code gets as
LEUCTRA_VERSION and leuctra.__version__ reads from the library (lt_version); pyproject.toml
declares it dynamic.  An sdist, built away from the Makefile, carries it in its PKG-INFO."""
import base64
import hashlib
import io
import os
import re
import sysconfig
import tarfile
import zipfile

NAME = "leuctra"
HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = os.path.join(HERE, "..", "build", "libleuctra.so")
PACKAGE_DATA = ("py.typed",)        # files of the package besides its .py files


def _version():
    makefile = os.path.join(HERE, "..", "Makefile")
    pkg_info = os.path.join(HERE, "PKG-INFO")
    source, pattern = (makefile, r"VERSION\s*:?=\s*(\S+)\s*$") if os.path.exists(makefile) else \
        (pkg_info, r"Version:\s*(\S+)\s*$")
    with open(source) as f:
        for line in f:
            m = re.match(pattern, line)
            if m:
                return m.group(1)
    raise RuntimeError("leuctra_build: no version in %s" % source)


VERSION = _version()
DIST_INFO = "%s-%s.dist-info" % (NAME, VERSION)


def _metadata():
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: Epaminondas, Crossings, Igfip and Reversi "
            "rules, search and self-play datasets (leuctra's C library)\nRequires-Python: >=3.8\n" % (NAME, VERSION))


def _tag():
    if os.path.exists(LIBRARY):
        return "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "py3-none-any"


def _wheel(wheel_directory, files):
    tag = _tag()
    path = os.path.join(wheel_directory, "%s-%s-%s.whl" % (NAME, VERSION, tag))
    files = dict(files)
    files[DIST_INFO + "/METADATA"] = _metadata().encode()
    files[DIST_INFO + "/WHEEL"] = ("Wheel-Version: 1.0\nGenerator: leuctra_build\nRoot-Is-Purelib: %s\nTag: %s\n"
                                   % ("true" if tag.endswith("any") else "false", tag)).encode()
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append("%s,sha256=%s,%d" % (name, digest, len(data)))
    record.append(DIST_INFO + "/RECORD,,")
    files[DIST_INFO + "/RECORD"] = ("\n".join(record) + "\n").encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return os.path.basename(path)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _package_names():
    return [n for n in sorted(os.listdir(os.path.join(HERE, NAME))) if n.endswith(".py") or n in PACKAGE_DATA]


def _package_files():
    files = {}
    pkg = os.path.join(HERE, NAME)
    for name in _package_names():
        files["%s/%s" % (NAME, name)] = _read(os.path.join(pkg, name))
    if os.path.exists(LIBRARY):
        files["%s/libleuctra.so" % NAME] = _read(LIBRARY)
    return files


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, _package_files())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, {"leuctra_editable.pth": (HERE + "\n").encode()})


def build_sdist(sdist_directory, config_settings=None):
    base = "%s-%s" % (NAME, VERSION)
    path = os.path.join(sdist_directory, base + ".tar.gz")
    with tarfile.open(path, "w:gz") as t:
        for rel in ["pyproject.toml", "leuctra_build.py"] + ["%s/%s" % (NAME, n) for n in _package_names()]:
            t.add(os.path.join(HERE, rel), arcname="%s/%s" % (base, rel))
        meta = _metadata().encode()
        info = tarfile.TarInfo("%s/PKG-INFO" % base)
        info.size = len(meta)
        t.addfile(info, io.BytesIO(meta))
    return os.path.basename(path)
