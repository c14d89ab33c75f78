#!/usr/bin/env python3
"""Prints the raw JSON view of a typedstream (NSArchiver data), as `keyed dump --raw --json FILE` must.

Usage: typedstream_dump.py FILE        (FILE may be "-" for standard input)

An independent second implementation, written from ../../shared/research/typedstream-format.md alone (no code
of the Swift implementation was read), with Python's standard library only.

Output: one line, json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False) written as UTF-8,
then a newline. Reals are printed with Python's shortest round-trip repr (so an integral real prints as "100.0").

Exit status: 0 success; 65 malformed or unsupported input (one line on stderr naming the file and the byte offset
where it broke); 64 bad arguments; 1 the file cannot be read.

The view, as this script reads the spec (points the spec leaves open are marked "choice"):
  {"byteOrder": "little" | "big" (choice: the spec names the key, not its values),
   "streamerVersion": 4, "systemVersion": n, "values": [every top-level group's values, flattened]}
  object      {"$id": k, "$class": name, "$version": n, "$super": [{"$class", "$version"}, ... to the root]
              ("[]" when the class has no superclass), "$fields": [its groups' values, flattened]}
              k counts literal ('@' NEW) objects only, 0-based, in stream order (an object takes its number
              before its class and fields are read); every literal object carries "$id" (choice: the raw view
              has no "reached twice" rule). A back-reference to object k is {"$ref": k}; nil is null.
  c C B       {"$type": code, "value": v}: c as a signed byte (choice), C unsigned, B false iff the byte is 0.
  s i l q     the integer exactly as stored; S I L Q wrapped to 16/32/32/64 bits.
  f d         a JSON number; f widened exactly from float32 (an f stored as an integer is first rounded to
              float32, choice); non-finite as the strings "NaN", "Infinity", "-Infinity".
  + * % :     "value": the text when the bytes are valid UTF-8, else {"$type": code, "hex": lower-case hex}
              (choice: lower case); a nil '*', '%' or ':' has "value": null.
  #           "value": {"$class", "$version", "$super"} (the same keys as an object's class, choice) or null.
  !           {"$type": "!", "value": null} (choice: the type still yields one value, with nothing read).
  [N c] [N C] {"$type": "[Nc]", "hex": the N raw bytes}; other arrays and structs {"$type": the encoding,
              "value": [one typed value per element or field]}.
  Class names and "$type" encodings are UTF-8 with backslash escapes ("\\xff", Python's backslashreplace) for
  bytes that are not valid UTF-8.
Rejected with 65 (choices where the spec is silent): streamer version other than 4, signature length other than 11
or an unknown signature; a tag other than 0x81/0x82/0x87 where an integer is expected (0x83 only for f/d);
a reference outside its table; a back-reference in '@' to a class or C string, in '#' to an object or C string, in
'*' to an object or class; a nil type encoding, a nil class name, an object whose class is nil; a type code
outside "cCBsilqSILQfd+*%:#@!", "[N t]" and "{name=t...}"; END outside an object; a circular class chain;
nesting deeper than the recursion limit (about 5000 levels); more than 2^20 values whose type takes no bytes
("!", "{s=}", arrays of them: "[N!]"). An empty type encoding is a group of no values.
"""
import json
import math
import struct
import sys
import threading

# Head tags (signed byte values).
TAG_INT16 = -127   # 0x81
TAG_INT32 = -126   # 0x82
TAG_REAL = -125    # 0x83
TAG_NEW = -124     # 0x84
TAG_NIL = -123     # 0x85
TAG_END = -122     # 0x86
TAG_INT64 = -121   # 0x87
FIRST_TAG = -128   # 0x80
LAST_TAG = -111    # 0x91
REFERENCE_BASE = -110  # 0x92 is entry 0

UNSIGNED_BITS = {"S": 16, "I": 32, "L": 32, "Q": 64}
SIGNED_INTEGERS = "silq"
SIMPLE_CODES = set("cCBsilqSILQfd+*%:#@!")
MAX_EMPTY_VALUES = 1 << 20  # values that take no bytes ("!", "{s=}", arrays of them) beyond this are refused


class Malformed(Exception):
    def __init__(self, offset, message):
        super().__init__(message)
        self.offset = offset
        self.message = message


def name_text(raw):
    return raw.decode("utf-8", "backslashreplace")


class ClassInfo:
    __slots__ = ("name", "version", "superclass")

    def __init__(self, name, version):
        self.name = name
        self.version = version
        self.superclass = None

    def json(self):
        chain = []
        seen = {id(self)}
        link = self.superclass
        while link is not None:
            if id(link) in seen:  # guarded at read time; kept as a second line of defence
                raise Malformed(0, "class chain is circular")
            seen.add(id(link))
            chain.append({"$class": name_text(link.name), "$version": link.version})
            link = link.superclass
        return {"$class": name_text(self.name), "$version": self.version, "$super": chain}


class TypeNode:
    """One type of a type encoding: kind is "simple", "array" or "struct"."""
    __slots__ = ("kind", "code", "text", "count", "element", "fields", "least")

    def __init__(self, kind, code=None, text=None, count=0, element=None, fields=None):
        self.kind = kind
        self.code = code
        self.text = text
        self.count = count
        self.element = element
        self.fields = fields
        # The fewest bytes a value of this type takes in the stream ('!' takes none).
        if kind == "simple":
            self.least = 0 if code == "!" else 1
        elif kind == "array":
            self.least = count * element.least
        else:
            self.least = sum(field.least for field in fields)


def parse_encoding(raw, offset):
    """Parses a type encoding (bytes) into a list of TypeNode; raises Malformed at `offset` (where it was read)."""
    text = raw

    def fail(why):
        raise Malformed(offset, f"bad type encoding {name_text(raw)!r}: {why}")

    def one(i):
        if i >= len(text):
            fail("ends inside a type")
        ch = chr(text[i])
        if ch in SIMPLE_CODES:
            return TypeNode("simple", code=ch, text=ch), i + 1
        if ch == "[":
            j = i + 1
            while j < len(text) and 0x30 <= text[j] <= 0x39:
                j += 1
            if j == i + 1:
                fail("array without a count")
            count = int(text[i + 1:j].decode("ascii"))
            element, k = one(j)
            if k >= len(text) or text[k] != 0x5D:
                fail("array not closed by ']'")
            return TypeNode("array", text=name_text(text[i:k + 1]), count=count, element=element), k + 1
        if ch == "{":
            eq = text.find(b"=", i + 1)
            close = text.find(b"}", i + 1)
            if eq < 0 or (0 <= close < eq):
                fail("struct without '='")
            for b in text[i + 1:eq]:
                if b in b"{}[]=":
                    fail("bad struct name")
            j = eq + 1
            fields = []
            while True:
                if j >= len(text):
                    fail("struct not closed by '}'")
                if text[j] == 0x7D:
                    break
                field, j = one(j)
                fields.append(field)
            return TypeNode("struct", text=name_text(text[i:j + 1]), fields=fields), j + 1
        fail(f"unsupported type code {ch!r}")

    nodes = []
    i = 0
    while i < len(text):
        node, i = one(i)
        nodes.append(node)
    return nodes


class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0
        self.order = "<"
        self.strings = []   # shared strings (bytes)
        self.objects = []   # object table: ("object", id) | ("class", ClassInfo) | ("cstring", bytes or None)
        self.next_id = 0
        self.encodings = {}
        self.empty_values = 0

    # -- bytes ---------------------------------------------------------------------------------------------
    def take(self, n):
        if n < 0 or self.pos + n > len(self.data):
            raise Malformed(self.pos, f"unexpected end of data: {n} bytes needed, {len(self.data) - self.pos} left")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def head(self):
        """Returns (signed head byte, its offset)."""
        at = self.pos
        b = self.take(1)[0]
        return (b - 256 if b >= 128 else b), at

    def integer(self, head, at):
        if head == TAG_INT16:
            return struct.unpack(self.order + "h", self.take(2))[0]
        if head == TAG_INT32:
            return struct.unpack(self.order + "i", self.take(4))[0]
        if head == TAG_INT64:
            return struct.unpack(self.order + "q", self.take(8))[0]
        if FIRST_TAG <= head <= LAST_TAG:
            raise Malformed(at, f"tag 0x{head & 0xFF:02X} where an integer was expected")
        return head

    def read_integer(self):
        h, at = self.head()
        return self.integer(h, at)

    def real(self, code):
        h, at = self.head()
        if h == TAG_REAL:
            if code == "f":
                return struct.unpack(self.order + "f", self.take(4))[0]
            return struct.unpack(self.order + "d", self.take(8))[0]
        value = self.integer(h, at)
        if code == "f":
            try:
                return struct.unpack("f", struct.pack("f", float(value)))[0]
            except (OverflowError, struct.error):
                return math.copysign(math.inf, value)
        return float(value)

    def reference(self, head, at, table, what):
        index = self.integer(head, at) - REFERENCE_BASE
        if not 0 <= index < len(table):
            raise Malformed(at, f"{what} reference {index} out of range (table holds {len(table)})")
        return index

    # -- strings -------------------------------------------------------------------------------------------
    def unshared(self):
        at = self.pos
        length = self.read_integer()
        if length < 0:
            raise Malformed(at, f"negative length {length}")
        return self.take(length)

    def shared(self, head, at):
        """Shared string (bytes or None) with its head already read."""
        if head == TAG_NIL:
            return None
        if head == TAG_NEW:
            raw = self.unshared()
            self.strings.append(raw)
            return raw
        return self.strings[self.reference(head, at, self.strings, "shared-string")]

    def cstring(self):
        h, at = self.head()
        if h == TAG_NIL:
            return None
        if h == TAG_NEW:
            h2, at2 = self.head()
            raw = self.shared(h2, at2)
            self.objects.append(("cstring", raw))
            return raw
        kind, value = self.objects[self.reference(h, at, self.objects, "object")]
        if kind != "cstring":
            raise Malformed(at, f"C-string reference to a {kind}")
        return value

    # -- classes and objects -------------------------------------------------------------------------------
    def classinfo(self, head, at):
        if head == TAG_NIL:
            return None
        if head == TAG_NEW:
            h, hat = self.head()
            name = self.shared(h, hat)
            if name is None:
                raise Malformed(hat, "nil class name")
            version = self.read_integer()
            cls = ClassInfo(name, version)
            self.objects.append(("class", cls))
            sat = self.pos
            h, hat = self.head()
            superclass = self.classinfo(h, hat)
            link = superclass
            while link is not None:
                if link is cls:
                    raise Malformed(sat, "class chain is circular")
                link = link.superclass
            cls.superclass = superclass
            return cls
        kind, value = self.objects[self.reference(head, at, self.objects, "object")]
        if kind != "class":
            raise Malformed(at, f"class reference to a {kind}")
        return value

    def obj(self, head, at):
        if head == TAG_NIL:
            return None
        if head == TAG_NEW:
            ident = self.next_id
            self.next_id += 1
            self.objects.append(("object", ident))
            h, hat = self.head()
            cls = self.classinfo(h, hat)
            if cls is None:
                raise Malformed(hat, "object with a nil class")
            out = cls.json()
            out["$id"] = ident
            fields = []
            while True:
                h, hat = self.head()
                if h == TAG_END:
                    break
                self.group(h, hat, fields)
            out["$fields"] = fields
            return out
        kind, value = self.objects[self.reference(head, at, self.objects, "object")]
        if kind != "object":
            raise Malformed(at, f"object reference to a {kind}")
        return {"$ref": value}

    # -- values --------------------------------------------------------------------------------------------
    def group(self, head, at, out):
        raw = self.shared(head, at)
        if raw is None:
            raise Malformed(at, "nil type encoding")
        nodes = self.encodings.get(raw)
        if nodes is None:
            nodes = parse_encoding(raw, at)
            self.encodings[raw] = nodes
        for node in nodes:
            out.append(self.value(node))

    def text_value(self, code, raw):
        if raw is None:
            return {"$type": code, "value": None}
        try:
            return {"$type": code, "value": raw.decode("utf-8")}
        except UnicodeDecodeError:
            return {"$type": code, "hex": raw.hex()}

    def value(self, node):
        if node.least == 0:
            self.empty_values += 1
            if self.empty_values > MAX_EMPTY_VALUES:
                raise Malformed(self.pos, f"unsupported: more than {MAX_EMPTY_VALUES} values that take no bytes")
        if node.kind == "array":
            element = node.element
            if node.least > len(self.data) - self.pos:
                raise Malformed(self.pos, f"unexpected end of data: {node.text} needs at least {node.least} bytes, "
                                          f"{len(self.data) - self.pos} left")
            if element.kind == "simple" and element.code in ("c", "C"):
                return {"$type": node.text, "hex": self.take(node.count).hex()}
            return {"$type": node.text, "value": [self.value(element) for _ in range(node.count)]}
        if node.kind == "struct":
            return {"$type": node.text, "value": [self.value(field) for field in node.fields]}
        code = node.code
        if code == "@":
            h, at = self.head()
            return self.obj(h, at)
        if code == "c":
            b = self.take(1)[0]
            return {"$type": code, "value": b - 256 if b >= 128 else b}
        if code == "C":
            return {"$type": code, "value": self.take(1)[0]}
        if code == "B":
            return {"$type": code, "value": self.take(1)[0] != 0}
        if code in SIGNED_INTEGERS:
            return {"$type": code, "value": self.read_integer()}
        if code in UNSIGNED_BITS:
            return {"$type": code, "value": self.read_integer() % (1 << UNSIGNED_BITS[code])}
        if code in ("f", "d"):
            v = self.real(code)
            if math.isnan(v):
                v = "NaN"
            elif math.isinf(v):
                v = "Infinity" if v > 0 else "-Infinity"
            return {"$type": code, "value": v}
        if code == "+":
            return self.text_value(code, self.unshared())
        if code == "*":
            return self.text_value(code, self.cstring())
        if code in ("%", ":"):
            h, at = self.head()
            return self.text_value(code, self.shared(h, at))
        if code == "#":
            h, at = self.head()
            cls = self.classinfo(h, at)
            return {"$type": code, "value": None if cls is None else cls.json()}
        if code == "!":
            return {"$type": code, "value": None}
        raise Malformed(self.pos, f"unsupported type code {code!r}")

    # -- stream --------------------------------------------------------------------------------------------
    def stream(self):
        version = self.take(1)[0]
        if version != 4:
            raise Malformed(0, f"streamer version {version} is not supported (only 4)")
        length = self.take(1)[0]
        if length != 11:
            raise Malformed(1, f"signature length {length}, expected 11")
        signature = self.take(11)
        if signature == b"streamtyped":
            self.order, order = "<", "little"
        elif signature == b"typedstream":
            self.order, order = ">", "big"
        else:
            raise Malformed(2, "signature is neither 'streamtyped' nor 'typedstream'")
        system = self.read_integer()
        values = []
        while self.pos < len(self.data):
            h, at = self.head()
            if h == TAG_END:
                raise Malformed(at, "END tag outside an object")
            self.group(h, at, values)
        return {"byteOrder": order, "streamerVersion": version, "systemVersion": system, "values": values}


def decode(data):
    """Returns the raw view (a JSON-ready dict); raises Malformed."""
    return Reader(data).stream()


def render(view):
    return json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def dump_bytes(data):
    """Returns the one-line JSON text for `data`; raises Malformed."""
    reader = Reader(data)
    try:
        view = reader.stream()
    except RecursionError:
        raise Malformed(reader.pos, "values nested too deeply") from None
    try:
        return render(view)
    except RecursionError:
        raise Malformed(reader.pos, "values nested too deeply to print") from None


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: typedstream_dump.py FILE\n")
        return 64
    name = argv[1]
    try:
        if name == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(name, "rb") as handle:
                data = handle.read()
    except OSError as error:
        sys.stderr.write(f"{name}: cannot read: {error.strerror or error}\n")
        return 1
    try:
        text = dump_bytes(data)
    except Malformed as error:
        sys.stderr.write(f"{name}: malformed typedstream at byte {error.offset}: {error.message}\n")
        return 65
    sys.stdout.buffer.write(text.encode("utf-8") + b"\n")
    sys.stdout.flush()
    return 0


def run_with_deep_stack(function, *args):
    """Runs function(*args) in a thread with a large stack, so deep object nesting does not overflow C stack."""
    result = [1]

    def target():
        try:
            result[0] = function(*args)
        except BaseException as error:  # never a traceback
            sys.stderr.write(f"typedstream_dump.py: internal error: {type(error).__name__}: {error}\n")
            result[0] = 1

    sys.setrecursionlimit(20000)
    threading.stack_size(512 * 1024 * 1024)
    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    return result[0]


if __name__ == "__main__":
    sys.exit(run_with_deep_stack(main, sys.argv))
