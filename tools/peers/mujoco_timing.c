// Times MuJoCo on a model written by tools/compare_mujoco.py: steps it from its keyframe 0 to
// T_END, REPS times, and prints one JSON line: the fastest run's wall seconds of mj_step alone,
// the steps taken, and that run's deepest penetration (the most negative contact distance seen at
// any step, m, reported as a positive depth), final kinetic energy (J) and final qpos.
//
//   mujoco_timing MODEL.xml T_END REPS
//
// Exit 2 on bad arguments or a model MuJoCo rejects (its message on stderr), 3 where MuJoCo warned
// (a full contact or constraint buffer drops contacts; a bad number resets the state) or the state
// stops being finite: a comparison needs to know, not a time.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <mujoco/mujoco.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double deepest(const mjData* d, double so_far) {
  for (int i = 0; i < d->ncon; ++i)
    if (-d->contact[i].dist > so_far) so_far = -d->contact[i].dist;
  return so_far;
}

static int finite_state(const mjModel* m, const mjData* d) {
  for (int i = 0; i < m->nq; ++i)
    if (!isfinite(d->qpos[i])) return 0;
  for (int i = 0; i < m->nv; ++i)
    if (!isfinite(d->qvel[i])) return 0;
  return 1;
}

// 0.5 v^T M(q) v after mj_forward (mj_energyVel reports 0 unless the energy flag is set).
static double kinetic_energy(const mjModel* m, mjData* d) {
  mjtNum* Mv = (mjtNum*)malloc(sizeof(mjtNum) * m->nv);
  mj_mulM(m, d, Mv, d->qvel);
  double e = 0;
  for (int i = 0; i < m->nv; ++i) e += 0.5 * d->qvel[i] * Mv[i];
  free(Mv);
  return e;
}

// MuJoCo prints its warnings on stdout, which holds the JSON line: they go to stderr.
static void warn(const char* message) { fprintf(stderr, "mujoco_timing: MuJoCo: %s\n", message); }

int main(int argc, char** argv) {
  mju_user_warning = warn;
  if (argc != 4) {
    fprintf(stderr, "usage: mujoco_timing MODEL.xml T_END REPS\n");
    return 2;
  }
  const double t_end = atof(argv[2]);
  const int reps = atoi(argv[3]);
  if (!(t_end > 0) || reps < 1) {
    fprintf(stderr, "mujoco_timing: T_END must be > 0 and REPS >= 1 (got %s, %s)\n", argv[2], argv[3]);
    return 2;
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof error);
  if (!m) {
    fprintf(stderr, "mujoco_timing: %s: %s\n", argv[1], error);
    return 2;
  }
  mjData* d = mj_makeData(m);
  double best = INFINITY, depth = 0, kinetic = 0;
  long steps = 0;
  for (int r = 0; r < reps; ++r) {
    mj_resetDataKeyframe(m, d, 0);
    long n = 0;
    const double start = now();
    while (d->time < t_end - 0.5 * m->opt.timestep) {
      mj_step(m, d);
      ++n;
    }
    const double wall = now() - start;
    if (wall < best) best = wall;
    steps = n;
  }
  // The diagnostics come from one more, untimed pass: measuring them costs a loop over contacts.
  mj_resetDataKeyframe(m, d, 0);
  while (d->time < t_end - 0.5 * m->opt.timestep) {
    mj_step(m, d);
    depth = deepest(d, depth);
    if (!finite_state(m, d)) {
      fprintf(stderr, "mujoco_timing: %s: the state is not finite at t = %g s\n", argv[1], d->time);
      return 3;
    }
  }
  mj_forward(m, d);
  kinetic = kinetic_energy(m, d);
  for (int w = 0; w < mjNWARNING; ++w)
    if (d->warning[w].number > 0 && w != mjWARN_VGEOMFULL) {
      fprintf(stderr, "mujoco_timing: %s: MuJoCo warned (warning %d) %d times: its run is not the scene's\n", argv[1],
              w, d->warning[w].number);
      return 3;
    }
  printf("{\"wall_s\": %.6g, \"steps\": %ld, \"t_final\": %.17g, \"deepest_penetration\": %.6g, "
         "\"final_kinetic_energy\": %.17g, \"final_qpos\": [",
         best, steps, d->time, depth, kinetic);
  for (int i = 0; i < m->nq; ++i) printf("%s%.17g", i ? ", " : "", d->qpos[i]);
  printf("]}\n");
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
