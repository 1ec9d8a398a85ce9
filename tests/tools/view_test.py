#!/usr/bin/env python3
"""view.html in a real browser: Debian's chromium, headless, driven by python3-selenium through
chromium-driver. The page a command wrote loads from file:// with no console error, draws the
scene's bodies (and a batch's ghosts), moves a body when the slider moves, marks every event of
events.csv on its timeline, and its screenshot is not blank; it stays under 2 MB.

    view_test.py IMPACTSIM OUT run SCENE [--set K=V ...]
    view_test.py IMPACTSIM OUT batch SCENE
    view_test.py IMPACTSIM OUT capsule
    view_test.py IMPACTSIM OUT impact SCENE
    view_test.py IMPACTSIM OUT errors SCENE       what `impactsim view` says of a directory it cannot draw

Exits 77 (skipped) where chromium or its driver is missing.
"""
import csv
import pathlib
import shutil
import subprocess
import sys
import time

CAPSULE = """
name: capsule_drop
world:
  gravity: [0, 0, -9.81]
  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]
bodies:
  - name: pill
    joint: {type: free}
    density: 100
    shapes: [{name: pill_shape, type: capsule, radius: 0.1, length: 1}]
    initial: {z: 1.0, wx: 2.0}
materials: {mu: 0.3, e: 0.2}
contacts:
  - {name: p, shape: pill_shape, with: ground}
simulation: {t_end: 1.0, output_interval: 0.01}
"""


def check(condition, message):
    if not condition:
        sys.exit(f"view_test: {message}")


def command(binary, *args):
    done = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
    check(done.returncode == 0, f"{' '.join(map(str, args))} failed:\n{done.stderr}")


def write_page(binary, out, mode, rest):
    """The page's path, and the run directory whose files it draws."""
    if mode == "capsule":
        scene = out / "capsule.yaml"
        scene.write_text(CAPSULE)
        mode, rest = "run", [str(scene)]
    if mode == "impact":
        command(binary, "impact", rest[0], "--samples", 300, "-o", out / "impact", "--view", "--quiet")
        return out / "impact" / "view.html", out / "impact", 0
    if mode == "run":
        command(binary, "run", rest[0], "-o", out / "run", "--view", "--quiet", *rest[1:])
        return out / "run" / "view.html", out / "run", 0
    command(binary, "batch", rest[0], "--runs", 4, "--trajectories", 4, "-o", out / "batch", "--force", "--view",
            "--quiet")
    return out / "batch" / "view.html", out / "batch" / "runs" / "0", 3


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=900,700", "--use-gl=swiftshader",
              "--enable-unsafe-swiftshader", "--disable-dev-shm-usage"):
        options.add_argument(a)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def not_blank(png):
    """The share of the 3-D view's pixels that are not background white, and their spread."""
    import io

    from PIL import Image, ImageStat

    image = Image.open(io.BytesIO(png)).convert("L")
    view = image.crop((0, 0, image.width, int(image.height * 0.55)))
    drawn = sum(view.histogram()[:240]) / (view.width * view.height)
    return drawn, ImageStat.Stat(view).stddev[0]


def view_errors(binary, out, scene):
    """`impactsim view` on no directory, on a run without poses, with an unknown column: exit 4 and
    the reason, and no page."""
    out.mkdir(parents=True, exist_ok=True)
    command(binary, "run", scene, "-o", out / "plain", "--quiet")
    command(binary, "batch", scene, "--runs", 2, "--trajectories", 2, "--view", "-o", out / "batch", "--quiet", "--force")
    for args, reason in (([out / "missing"], "is not a directory"), ([out / "plain"], "has no wireframes.csv or outlines.csv"),
                         ([out / "batch", "--color", "nope"], "has no column 'nope'")):
        done = subprocess.run([binary, "view", *map(str, args)], capture_output=True, text=True)
        check(done.returncode == 4 and reason in done.stderr, f"view {args}: exit {done.returncode}, {done.stderr}")
    check(not (out / "plain" / "view.html").exists(), "a page was written for a run without poses")
    print("view_test: view's errors are named")
    return 0


def main():
    binary, out, mode, rest = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3], sys.argv[4:]
    if mode == "errors":
        return view_errors(binary, out, rest[0])
    if not shutil.which("chromium") or not shutil.which("chromedriver"):
        print("view_test: chromium and chromium-driver are needed (tools/setup.sh installs them)")
        return 77
    out.mkdir(parents=True, exist_ok=True)
    page, run_dir, ghosts = write_page(binary, out, mode, rest)
    check(page.stat().st_size < 2 * 1024 * 1024, f"{page} is {page.stat().st_size} bytes, over 2 MB")
    with open(run_dir / "poses.csv") as f:
        header = next(csv.reader(f))
    planar = header[-1].endswith(".theta")
    bodies = (len(header) - 1) // (3 if planar else 7)
    events, moving = 0, None
    if (run_dir / "events.csv").exists():
        with open(run_dir / "events.csv") as f:
            events = sum(1 for _ in f) - 1
    else:  # an impact's page: select the sample whose post-impact velocity is largest, to see it move
        with open(run_dir / "samples.csv") as f:
            reader = csv.reader(f)
            head = next(reader)
            first_vn = next(k for k, c in enumerate(head) if c.endswith(".vn"))  # v+ is columns 1 .. first_vn - 1
            speeds = [max(abs(float(x)) for x in r[1:first_vn]) for r in reader]
        moving = max(range(len(speeds)), key=speeds.__getitem__)
    driver = browser()
    try:
        driver.get(page.resolve().as_uri())
        for _ in range(200):
            if driver.execute_script("return !!(window.impactsimView && window.impactsimView.ready)"):
                break
            time.sleep(0.05)
        view = driver.execute_script("return window.impactsimView")
        check(view and view["ready"], "the page never became ready")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, f"console errors: {errors}")
        check(view["bodies"] == bodies, f"{view['bodies']} bodies drawn, poses.csv has {bodies}")
        check(view["ghosts"] == ghosts, f"{view['ghosts']} ghosts drawn, expected {ghosts}")
        check(view["eventMarkers"] == events, f"{view['eventMarkers']} event markers, events.csv has {events}")
        if moving is not None:
            check(view["samples"] == 300, f"{view.get('samples')} samples in the scatter, 300 drawn")
            driver.execute_script(f"impactsimView.selectSample({moving})")
        start = driver.execute_script("return impactsimView.bodyPosition(0)")
        driver.execute_script("const s = document.getElementById('slider'); s.value = 700000;"
                              "s.dispatchEvent(new Event('input'));")
        moved = driver.execute_script("return [impactsimView.time, impactsimView.bodyPosition(0)]")
        check(moved[0] > 0, "the slider did not move the time")
        check(max(abs(a - b) for a, b in zip(start, moved[1])) > 1e-6, f"body 0 did not move: {start} -> {moved[1]}")
        time.sleep(0.3)
        png = driver.get_screenshot_as_png()
        (out / "screenshot.png").write_bytes(png)
        drawn, spread = not_blank(png)
        check(drawn > 0.001 and spread > 2, f"the view looks blank: {drawn:.4f} of pixels drawn, spread {spread:.2f}")
    finally:
        driver.quit()
    print(f"view_test: {page}: {bodies} bodies, {ghosts} ghosts, {events} events, {drawn:.3f} of the view drawn")
    return 0


if __name__ == "__main__":
    sys.exit(main())
