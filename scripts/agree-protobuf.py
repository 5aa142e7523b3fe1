#!/usr/bin/env python3
"""agree-protobuf.py — how often catalog-diff's Protobuf verdicts agree with `buf breaking`.

Not a test and not run by CI: run it by hand after changing the Protobuf walker or rules.

    scripts/agree-protobuf.py [--seed N] [--pairs N] [--keep DIR]

It generates random .proto files (proto2 and proto3: scalars, enums with aliases, nested and
map types, well-known types, oneofs, reserved ranges and names, json_name, defaults, required
fields, extensions, services) and mutates each with one to three random edits (renames, type and
label changes, deletions with or without reservations, enum edits, oneof moves, package changes,
RPC changes, ...). buf judges every pair under WIRE_JSON and WIRE in one batch (each pair is its
own folder and package of one buf module); catalog-diff judges each pair with
`catalog-diff schema --proto-rules`. It prints the agreement per category, every disagreement,
and whether every file buf refuses to compile makes catalog-diff exit 2.

buf comes from BUF, else target/buf (see scripts/record-protobuf.sh); the binary from
target/debug/catalog-diff (build it first).
"""
import argparse, collections, copy, json, os, random, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUF = os.environ.get("BUF", os.path.join(ROOT, "target/buf/node_modules/.bin/buf"))
TOOL = os.path.join(ROOT, "target/debug/catalog-diff")
SCALARS = ["double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32",
           "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes"]
R = random.Random(1)


def name(prefix):
    return prefix + str(R.randint(0, 9999))


def new_enum(syntax, ename):
    values = []
    for i in range(R.randint(2, 5)):
        values.append({"name": f"{ename.upper()}_V{i}",
                       "number": i if syntax == "proto3" or R.random() < 0.8 else i + 1})
    if syntax == "proto3":
        values[0]["number"] = 0
    return {"name": ename, "values": values, "reserved_nums": [], "reserved_names": []}


def new_message(mname):
    return {"name": mname, "fields": [], "reserved_nums": [], "reserved_names": [], "nested": [],
            "enums": []}


def new_field(syntax, number, messages, enums, used):
    while True:
        fname = R.choice(["id", "name", "amount", "status", "created_at", "items", "tags", "note",
                          "count", "kind", "ref", "total_price", "customerId", "flag", "data"])
        fname += "" if R.random() < 0.5 else str(R.randint(1, 99))
        if fname not in used:
            break
    used.add(fname)
    r = R.random()
    f = {"name": fname, "number": number, "label": None, "type": None, "json": None,
         "default": None, "oneof": None, "map": None}
    if r < 0.55:
        f["type"] = R.choice(SCALARS)
    elif r < 0.65 and enums:
        f["type"] = R.choice(enums)
    elif r < 0.75 and messages:
        f["type"] = R.choice(messages)
    elif r < 0.82:
        f["type"] = "google.protobuf.Timestamp"
    elif r < 0.9:
        f["map"] = (R.choice(["string", "int32", "int64"]),
                    R.choice(["string", "int32", "int64", "double"] + enums[:1]))
    else:
        f["type"] = R.choice(SCALARS)
    if f["map"] is None:
        lr = R.random()
        if syntax == "proto2":
            f["label"] = "repeated" if lr < 0.2 else ("required" if lr < 0.3 else "optional")
        else:
            f["label"] = "repeated" if lr < 0.2 else ("optional" if lr < 0.35 else None)
    if R.random() < 0.1:
        f["json"] = fname + "Json"
    if (syntax == "proto2" and f["label"] == "optional"
            and f["type"] in ("int32", "int64", "string", "bool", "double") and R.random() < 0.3):
        f["default"] = {"int32": "7", "int64": "-3", "string": '"x"', "bool": "true",
                        "double": "1.5"}[f["type"]]
    return f


def new_file(package):
    syntax = "proto2" if R.random() < 0.25 else "proto3"
    enums = [new_enum(syntax, name("Kind")) for _ in range(R.randint(0, 2))]
    messages = [new_message(name("Msg")) for _ in range(R.randint(1, 3))]
    names = [m["name"] for m in messages]
    for m in messages:
        used = set()
        if R.random() < 0.3:
            m["enums"].append(new_enum(syntax, name("State")))
        enum_names = [e["name"] for e in enums] + [e["name"] for e in m["enums"]]
        others = [n for n in names if n != m["name"]]
        for j in range(R.randint(2, 6)):
            m["fields"].append(new_field(syntax, j + 1, others, enum_names, used))
        if R.random() < 0.3:
            for f in R.sample(m["fields"], min(2, len(m["fields"]))):
                if f["map"] is None and f["default"] is None and (
                        (syntax == "proto3" and f["label"] in (None, "optional"))
                        or (syntax == "proto2" and f["label"] == "optional")):
                    f["oneof"], f["label"] = "choice", None
        if R.random() < 0.25:
            m["reserved_nums"].append((20, 25) if R.random() < 0.5 else (30, 30))
        if R.random() < 0.2:
            m["reserved_names"].append("old_field")
        if R.random() < 0.35:
            inner = new_message(name("Inner"))
            inner_used = set()
            for j in range(R.randint(1, 3)):
                inner["fields"].append(new_field(syntax, j + 1, [], [e["name"] for e in enums], inner_used))
            m["nested"].append(inner)
            if R.random() < 0.7:
                f = new_field(syntax, max(x["number"] for x in m["fields"]) + 1, [], [], used)
                f.update(type=inner["name"], map=None, default=None, json=None)
                if syntax == "proto2" and f["label"] is None:
                    f["label"] = "optional"
                m["fields"].append(f)
    for e in enums:
        if R.random() < 0.15 and len(e["values"]) >= 2:
            e["alias"] = True
            e["values"].append({"name": e["name"].upper() + "_ALIAS", "number": e["values"][1]["number"]})
    services = []
    if R.random() < 0.3:
        rpcs = [{"name": name("Do"), "in": R.choice(names), "out": R.choice(names),
                 "cs": R.random() < 0.2, "ss": R.random() < 0.2, "idem": None}
                for _ in range(R.randint(1, 3))]
        services.append({"name": name("Svc"), "rpcs": rpcs})
    extensions = []
    if syntax == "proto2" and R.random() < 0.25:
        messages[0]["ext_range"] = (100, 200)
        extensions.append({"target": messages[0]["name"], "name": name("ext"), "number": 100,
                           "type": R.choice(["int32", "string", "int64", "bytes"]), "label": "optional"})
    return {"syntax": syntax, "package": package, "enums": enums, "messages": messages,
            "services": services, "exts": extensions}


def render_enum(e, ind):
    out = [f"{ind}enum {e['name']} {{"]
    if e.get("alias"):
        out.append(f"{ind}  option allow_alias = true;")
    out += [f"{ind}  {v['name']} = {v['number']};" for v in e["values"]]
    out += [f"{ind}  reserved {a} to {b};" if a != b else f"{ind}  reserved {a};" for a, b in e["reserved_nums"]]
    out += [f'{ind}  reserved "{n}";' for n in e["reserved_names"]]
    return out + [f"{ind}}}"]


def render_field(f):
    options = []
    if f["json"]:
        options.append(f'json_name = "{f["json"]}"')
    if f["default"] is not None:
        options.append(f"default = {f['default']}")
    suffix = (" [" + ", ".join(options) + "]") if options else ""
    if f["map"]:
        return f"map<{f['map'][0]}, {f['map'][1]}> {f['name']} = {f['number']}{suffix};"
    label = (f["label"] + " ") if f["label"] else ""
    return f"{label}{f['type']} {f['name']} = {f['number']}{suffix};"


def render_message(m, ind):
    out = [f"{ind}message {m['name']} {{"]
    for e in m["enums"]:
        out += render_enum(e, ind + "  ")
    for n in m["nested"]:
        out += render_message(n, ind + "  ")
    out += [ind + "  " + render_field(f) for f in m["fields"] if not f["oneof"]]
    groups = {}
    for f in m["fields"]:
        if f["oneof"]:
            groups.setdefault(f["oneof"], []).append(f)
    for group, members in groups.items():
        out.append(f"{ind}  oneof {group} {{")
        out += [ind + "    " + render_field(f) for f in members]
        out.append(ind + "  }")
    out += [f"{ind}  reserved {a} to {b};" if a != b else f"{ind}  reserved {a};" for a, b in m["reserved_nums"]]
    out += [f'{ind}  reserved "{n}";' for n in m["reserved_names"]]
    if m.get("ext_range"):
        out.append(f"{ind}  extensions {m['ext_range'][0]} to {m['ext_range'][1]};")
    return out + [ind + "}"]


def render(fm):
    out = [f'syntax = "{fm["syntax"]}";', f"package {fm['package']};",
           'import "google/protobuf/timestamp.proto";', ""]
    for e in fm["enums"]:
        out += render_enum(e, "")
    for m in fm["messages"]:
        out += render_message(m, "")
    for x in fm["exts"]:
        out.append(f"extend {x['target']} {{ {x['label']} {x['type']} {x['name']} = {x['number']}; }}")
    for service in fm["services"]:
        out.append(f"service {service['name']} {{")
        for r in service["rpcs"]:
            body = f" {{ option idempotency_level = {r['idem']}; }}" if r["idem"] else ";"
            out.append(f"  rpc {r['name']}({'stream ' if r['cs'] else ''}{r['in']}) returns "
                       f"({'stream ' if r['ss'] else ''}{r['out']}){body}")
        out.append("}")
    return "\n".join(out) + "\n"


def all_enums(fm):
    return fm["enums"] + [e for m in fm["messages"] for e in m["enums"]]


def mutate(fm):
    fm = copy.deepcopy(fm)
    messages = fm["messages"]
    m = R.choice(messages)
    if m["nested"] and R.random() < 0.3:
        m = R.choice(m["nested"])
    fields = m["fields"]
    names = [x["name"] for x in messages]
    kind = R.choice(["rename", "rename_camel", "type", "type_compat", "label", "add", "delete",
                     "delete_res_num", "delete_res_name", "delete_res_both", "json", "enum_add",
                     "enum_del", "enum_del_res", "enum_rename", "enum_renumber", "enum_first",
                     "res_remove", "res_name_remove", "res_add", "oneof_in", "oneof_out", "map_val",
                     "map_to_rep", "package", "msg_del", "msg_add", "optional_toggle", "default",
                     "required", "swap_numbers", "msg_ref", "rpc", "ext", "alias"])
    plain = [f for f in fields if not f["map"]]
    if kind == "rename" and fields:
        R.choice(fields)["name"] += "_v2"
    elif kind == "rename_camel" and fields:
        f = R.choice(fields)
        parts = f["name"].split("_")
        f["name"] = parts[0] + "".join(p.title() for p in parts[1:]) if len(parts) > 1 else f["name"] + "_x"
    elif kind in ("type", "type_compat") and plain:
        f = R.choice(plain)
        if kind == "type_compat":
            groups = [["int32", "uint32", "int64", "uint64", "bool"], ["sint32", "sint64"],
                      ["fixed32", "sfixed32"], ["fixed64", "sfixed64"], ["string", "bytes"]]
            group = [g for g in groups if f["type"] in g]
            f["type"] = R.choice(group[0]) if group else R.choice(SCALARS)
        else:
            f["type"] = R.choice(SCALARS + [e["name"] for e in fm["enums"]] + ["google.protobuf.Timestamp"])
        f["default"] = None
    elif kind == "label" and plain:
        candidates = [f for f in plain if not f["oneof"]]
        if not candidates:
            return None
        f = R.choice(candidates)
        f["label"] = R.choice(["repeated", "optional", "required"] if fm["syntax"] == "proto2"
                              else ["repeated", "optional", None])
        if f["label"] != "optional":
            f["default"] = None
    elif kind == "add":
        number = max([f["number"] for f in fields] + [0]) + 1
        while any(a <= number <= b for a, b in m["reserved_nums"]):
            number += 1
        f = new_field(fm["syntax"], number, [n for n in names if n != m["name"]],
                      [e["name"] for e in fm["enums"]], {f["name"] for f in fields})
        if f["name"] in m["reserved_names"]:
            return None
        fields.append(f)
    elif kind.startswith("delete") and fields:
        f = R.choice(fields)
        fields.remove(f)
        if kind in ("delete_res_num", "delete_res_both"):
            m["reserved_nums"].append((f["number"], f["number"]))
        if kind in ("delete_res_name", "delete_res_both"):
            m["reserved_names"].append(f["name"])
    elif kind == "json" and plain:
        f = R.choice(plain)
        f["json"] = None if f["json"] else f["name"] + "Alt"
    elif kind.startswith("enum") and all_enums(fm):
        e = R.choice(all_enums(fm))
        values = e["values"]
        if kind == "enum_add":
            values.append({"name": e["name"].upper() + "_NEW", "number": max(v["number"] for v in values) + 1})
        elif kind in ("enum_del", "enum_del_res"):
            if len(values) < 3:
                return None
            v = R.choice(values[1:])
            values.remove(v)
            if kind == "enum_del_res":
                r = R.random()
                if r < 0.7:
                    e["reserved_nums"].append((v["number"], v["number"]))
                if r >= 0.4:
                    e["reserved_names"].append(v["name"])
        elif kind == "enum_rename":
            R.choice(values)["name"] += "_RENAMED"
        elif kind == "enum_renumber":
            if len(values) < 2:
                return None
            R.choice(values[1:])["number"] = max(x["number"] for x in values) + 5
        elif kind == "enum_first":
            if fm["syntax"] != "proto2" or len(values) < 2:
                return None
            values[0], values[1] = values[1], values[0]
    elif kind == "res_remove" and m["reserved_nums"]:
        a, b = m["reserved_nums"].pop()
        if R.random() < 0.5 and b > a:
            m["reserved_nums"].append((a, b - 1))
    elif kind == "res_name_remove" and m["reserved_names"]:
        m["reserved_names"].pop()
    elif kind == "res_add":
        m["reserved_nums"].append((100, 110))
    elif kind == "oneof_in":
        candidates = [f for f in plain if not f["oneof"] and f["label"] in (None, "optional") and f["default"] is None]
        if not candidates:
            return None
        f = R.choice(candidates)
        f["oneof"], f["label"] = R.choice(["choice", "other"]), None
    elif kind == "oneof_out":
        candidates = [f for f in fields if f["oneof"]]
        if not candidates:
            return None
        f = R.choice(candidates)
        f["oneof"] = None
        if fm["syntax"] == "proto2":
            f["label"] = "optional"
    elif kind in ("map_val", "map_to_rep"):
        candidates = [f for f in fields if f["map"]]
        if not candidates:
            return None
        f = R.choice(candidates)
        if kind == "map_val":
            f["map"] = (f["map"][0], R.choice(["string", "int32", "int64", "bytes", "double"]))
        else:
            f.update(map=None, type="string", label="repeated")
    elif kind == "package":
        fm["package"] += "x"
    elif kind == "msg_del":
        if len(messages) < 2:
            return None
        victim = R.choice(messages)
        for x in messages:
            for f in x["fields"]:
                if f["type"] == victim["name"] or (f["map"] and f["map"][1] == victim["name"]):
                    return None
        for service in fm["services"]:
            if any(victim["name"] in (r["in"], r["out"]) for r in service["rpcs"]):
                return None
        for x in fm["exts"]:
            if x["target"] == victim["name"]:
                return None
        messages.remove(victim)
    elif kind == "msg_add":
        added = new_message(name("Added"))
        added["fields"].append({"name": "id", "number": 1, "label": None if fm["syntax"] == "proto3" else "optional",
                                "type": "string", "json": None, "default": None, "oneof": None, "map": None})
        messages.append(added)
    elif kind == "optional_toggle" and fm["syntax"] == "proto3":
        candidates = [f for f in plain if f["label"] in (None, "optional") and not f["oneof"]]
        if not candidates:
            return None
        f = R.choice(candidates)
        f["label"] = None if f["label"] == "optional" else "optional"
    elif kind == "default" and fm["syntax"] == "proto2":
        candidates = [f for f in fields if f["label"] == "optional" and not f["oneof"]
                      and f["type"] in ("int32", "int64", "string", "bool", "double")]
        if not candidates:
            return None
        f = R.choice(candidates)
        f["default"] = R.choice([None, {"int32": "9", "int64": "4", "string": '"y"', "bool": "false",
                                        "double": "2.5"}[f["type"]]])
    elif kind == "required" and fm["syntax"] == "proto2":
        candidates = [f for f in fields if f["label"] == "optional" and not f["oneof"]]
        if not candidates:
            return None
        f = R.choice(candidates)
        f["label"], f["default"] = "required", None
    elif kind == "swap_numbers" and len(fields) >= 2:
        a, b = R.sample(fields, 2)
        a["number"], b["number"] = b["number"], a["number"]
    elif kind == "msg_ref":
        candidates = [f for f in plain if f["type"] in names + ["google.protobuf.Timestamp"]]
        if not candidates:
            return None
        f = R.choice(candidates)
        f["type"] = R.choice([n for n in names if n not in (m["name"], f["type"])] + ["google.protobuf.Timestamp"])
    elif kind == "rpc" and fm["services"]:
        rpcs = fm["services"][0]["rpcs"]
        r = R.choice(rpcs)
        change = R.choice(["in", "out", "cs", "ss", "idem", "del", "add"])
        if change in ("in", "out"):
            r[change] = R.choice(names)
        elif change in ("cs", "ss"):
            r[change] = not r[change]
        elif change == "idem":
            r["idem"] = R.choice([None, "IDEMPOTENT", "NO_SIDE_EFFECTS"])
        elif change == "del":
            rpcs.remove(r)
        else:
            rpcs.append({"name": name("New"), "in": names[0], "out": names[0], "cs": False, "ss": False, "idem": None})
    elif kind == "ext" and fm["exts"]:
        x = fm["exts"][0]
        change = R.choice(["type", "name", "label"])
        if change == "type":
            x["type"] = R.choice(["int32", "string", "int64", "bytes", "uint32", "sint32"])
        elif change == "name":
            x["name"] += "_b"
        else:
            x["label"] = R.choice(["optional", "repeated"])
    elif kind == "alias":
        aliased = [e for e in fm["enums"] if e.get("alias")]
        if not aliased:
            return None
        values = aliased[0]["values"]
        if R.random() < 0.5:
            values.pop()
        else:
            values.append({"name": aliased[0]["name"].upper() + "_ALIAS2", "number": values[0]["number"]})
    else:
        return None
    return fm


def buf_breaking(module, category, version):
    config = json.dumps({"version": version, "breaking": {"use": [category]}})
    return subprocess.run([BUF, "breaking", "--against", "../before", "--config", config,
                           "--error-format", "json"], cwd=os.path.join(module, "after"),
                          capture_output=True, text=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--buf-config", default="v2", help="buf config version (v1 or v2)")
    parser.add_argument("--keep", help="write the pairs here instead of a temporary folder")
    args = parser.parse_args()
    R.seed(args.seed)
    work = args.keep or tempfile.mkdtemp(prefix="agree-protobuf-")
    pairs_dir, module = os.path.join(work, "pairs"), os.path.join(work, "module")
    shutil.rmtree(pairs_dir, ignore_errors=True)
    shutil.rmtree(module, ignore_errors=True)
    pairs = []
    while len(pairs) < args.pairs:
        base = new_file(f"acme.p{len(pairs)}.v1")
        changed = base
        for _ in range(R.choice([1, 1, 1, 2, 3])):
            changed = mutate(changed) or changed
        if changed is base:
            continue
        pair = f"p{len(pairs):04d}"
        for side, fm in (("before", base), ("after", changed)):
            os.makedirs(os.path.join(pairs_dir, pair), exist_ok=True)
            with open(os.path.join(pairs_dir, pair, side + ".proto"), "w") as handle:
                handle.write(render(fm))
            os.makedirs(os.path.join(module, side, pair))
            shutil.copy(os.path.join(pairs_dir, pair, side + ".proto"),
                        os.path.join(module, side, pair, "schema.proto"))
        pairs.append(pair)

    invalid = set()

    def drop(pair):
        invalid.add(pair)
        for side in ("before", "after"):
            shutil.rmtree(os.path.join(module, side, pair), ignore_errors=True)

    for side in ("before", "after"):
        while True:
            run = subprocess.run([BUF, "build", "--error-format", "json"], cwd=os.path.join(module, side),
                                 capture_output=True, text=True)
            if run.returncode == 0:
                break
            bad = {json.loads(line)["path"].split("/")[0] for line in (run.stdout + run.stderr).splitlines() if line.startswith("{")}
            if not bad:
                sys.exit(f"buf build failed: {run.stderr[:500]}")
            for pair in bad:
                drop(pair)
    while True:  # a few problems only show when buf links the image
        run = buf_breaking(module, "WIRE", args.buf_config)
        if run.returncode in (0, 100):
            break
        found = re.search(r"acme\.p(\d+)\.", run.stderr)
        if not found:
            sys.exit(f"buf breaking failed: {run.stderr[:500]}")
        drop(f"p{int(found.group(1)):04d}")
    failed = {}
    for category in ("WIRE_JSON", "WIRE"):
        run = buf_breaking(module, category, args.buf_config)
        rules = collections.defaultdict(set)
        for line in run.stdout.splitlines():
            annotation = json.loads(line)
            rules[annotation["path"].split("/")[0]].add(annotation["type"])
        failed[category] = rules

    agree, breaking = collections.Counter(), collections.Counter()
    for pair in pairs:
        if pair in invalid:
            continue
        for category, flag in (("WIRE_JSON", "wire-json"), ("WIRE", "wire")):
            run = subprocess.run([TOOL, "schema", "--format", "json", "--proto-rules", flag,
                                  os.path.join(pairs_dir, pair, "before.proto"),
                                  os.path.join(pairs_dir, pair, "after.proto")],
                                 capture_output=True, text=True)
            theirs = bool(failed[category].get(pair))
            breaking[category] += theirs
            ours = {0: False, 1: True}.get(run.returncode, "exit " + str(run.returncode))
            if ours == theirs:
                agree[category] += 1
            else:
                kinds = sorted({op["kind"] for op in json.loads(run.stdout)["ops"] if op["breaking"]}) \
                    if run.returncode in (0, 1) else run.stderr.strip()
                print(f"disagree {pair} {category}: buf {sorted(failed[category].get(pair, []))}, catalog-diff {kinds}")
    valid = len(pairs) - len(invalid)
    print(f"{len(pairs)} pairs (seed {args.seed}, buf config {args.buf_config}): {valid} compile, {len(invalid)} do not")
    for category in ("WIRE_JSON", "WIRE"):
        print(f"{category}: {agree[category]}/{valid} agree ({100 * agree[category] / max(valid, 1):.2f}%), "
              f"buf breaking on {breaking[category]}")
    exit_2 = 0
    for pair in sorted(invalid):
        run = subprocess.run([TOOL, "schema", os.path.join(pairs_dir, pair, "before.proto"),
                              os.path.join(pairs_dir, pair, "after.proto")], capture_output=True, text=True)
        named = ".proto:" in run.stderr
        if run.returncode == 2 and named:
            exit_2 += 1
        else:
            print(f"invalid {pair}: catalog-diff exit {run.returncode}: {run.stderr.strip()[:200]}")
    print(f"files buf refuses: {exit_2}/{len(invalid)} pairs exit 2 naming the file")
    if not args.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
