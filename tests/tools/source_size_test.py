#!/usr/bin/env python3
"""Small files and short functions: no source file of the libraries over 400 lines, no function
over 80 (a function's lines from its header's opening brace to its closing one, lambdas inside it
counted with it). Prints every file and function over its bound."""
import pathlib
import re
import sys

FOLDERS = ("app", "collision", "core", "impact", "numerics", "scenes", "python")
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 80


def code_of(line):
    """The line without its comment and the contents of its string and character literals."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])*'", "''", line)
    return re.sub(r"//.*", "", line)


def functions(lines):
    """(first line, length, header) of every function body: a brace opened after a ')' (and
    qualifiers) outside any other function body, namespaces and class bodies being transparent."""
    out, kinds, header, start, name = [], [], "", 0, ""
    for number, line in enumerate(lines, 1):
        code = code_of(line)
        for k, ch in enumerate(code):
            if ch == "{":
                tail = (header + " " + code[:k]).split(";")[-1].split("}")[-1].strip()
                if "function" in kinds:
                    kinds.append("block")
                elif re.search(r"\bnamespace\b", tail) or re.search(r"\b(class|struct|union|enum)\b[^()]*$", tail) \
                        or tail.endswith("="):
                    kinds.append("scope")
                elif re.search(r"\)\s*(const|noexcept|override|final|->[^{]*)?\s*(:.*)?$", tail):
                    kinds.append("function")
                    start, name = number, tail
                else:
                    kinds.append("block")
                header = ""
            elif ch == "}":
                if kinds and kinds.pop() == "function":
                    out.append((start, number - start + 1, name))
                header = ""
            elif ch == ";" and "function" not in kinds:
                header = ""
        if "function" not in kinds and code.strip():
            header = (header + " " + code)[-500:]
    return out


def main():
    root = pathlib.Path(sys.argv[1])
    problems = []
    for folder in FOLDERS:
        for path in sorted((root / folder).glob("*.[ch]pp")):
            lines = path.read_text().splitlines()
            name = path.relative_to(root)
            if len(lines) > MAX_FILE_LINES:
                problems.append(f"{name}: {len(lines)} lines, more than {MAX_FILE_LINES}")
            for start, length, header in functions(lines):
                if length > MAX_FUNCTION_LINES:
                    problems.append(f"{name}:{start}: a function of {length} lines, more than {MAX_FUNCTION_LINES}: "
                                    f"{header[:80]}")
    print("\n".join(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
