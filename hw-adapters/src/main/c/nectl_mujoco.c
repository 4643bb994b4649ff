/*
 * JNI shim over MuJoCo's C API (2.2.x) for org.nectl.hw.mujoco.MujocoNative.
 *
 * One plant = one mjModel + one mjData + the map from nectl coordinates to MuJoCo dof addresses +
 * the address of a direct ByteBuffer shared with Java (layout: ExchangeLayout.java). The per-step
 * entry points read and write that buffer only, so a step crosses JNI once and allocates nothing.
 *
 * MuJoCo reports fatal errors through mju_user_error and would exit the process otherwise; the
 * handler jumps back to the entry point that called into MuJoCo, which then reports the error
 * (load: an exception; step: ENGINE_ERROR, after which the plant is marked failed). Warnings go to
 * a counter instead of MuJoCo's log file in the working directory.
 */
#include <jni.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>

#include "org_nectl_hw_mujoco_MujocoNative.h"

#define WRENCH_SIZE 11
#define CONTACT_SIZE 4
#define STEP_OK 0
#define STEP_NON_FINITE 2
#define STEP_ENGINE_ERROR 3

typedef struct
{
    mjModel* m;
    mjData* d;
    int n;
    int* dof;
    double* io;
    int failed;
} plant;

static __thread jmp_buf* error_target;
static __thread char error_message[1000];

static void on_error(const char* msg)
{
    snprintf(error_message, sizeof(error_message), "%s", msg);
    if (error_target != NULL)
    {
        longjmp(*error_target, 1);
    }
    fprintf(stderr, "nectl mujoco: MuJoCo error outside a guarded call: %s\n", msg);
    abort();
}

static void on_warning(const char* msg)
{
    (void)msg;
}

static plant* from(jlong handle)
{
    return (plant*)(intptr_t)handle;
}

/* Offsets of ExchangeLayout.java. */
static double* tau(plant* p) { return p->io; }
static double* q(plant* p) { return p->io + p->n; }
static double* qd(plant* p) { return p->io + 2 * p->n; }
static double* qdd(plant* p) { return p->io + 3 * p->n; }
static double* constraint(plant* p) { return p->io + 4 * p->n; }
static double* wrench(plant* p) { return p->io + 5 * p->n; }
static double* contact(plant* p) { return p->io + 5 * p->n + WRENCH_SIZE; }
static double* mass_matrix(plant* p) { return p->io + 5 * p->n + WRENCH_SIZE + CONTACT_SIZE; }

static void throw_illegal(JNIEnv* env, const char* message)
{
    jclass type = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
    if (type != NULL)
    {
        (*env)->ThrowNew(env, type, message);
    }
}

JNIEXPORT jstring JNICALL Java_org_nectl_hw_mujoco_MujocoNative_version(JNIEnv* env, jclass type)
{
    (void)type;
    return (*env)->NewStringUTF(env, mj_versionString());
}

JNIEXPORT jlong JNICALL Java_org_nectl_hw_mujoco_MujocoNative_load(JNIEnv* env, jclass type, jstring path)
{
    (void)type;
    mju_user_error = on_error;
    mju_user_warning = on_warning;
    const char* file = (*env)->GetStringUTFChars(env, path, NULL);
    char error[1000] = "";
    mjModel* m = NULL;
    mjData* d = NULL;
    jmp_buf target;
    error_target = &target;
    if (setjmp(target) == 0)
    {
        m = mj_loadXML(file, NULL, error, sizeof(error));
        d = m != NULL ? mj_makeData(m) : NULL;
    }
    else
    {
        snprintf(error, sizeof(error), "%s", error_message);
    }
    error_target = NULL;
    (*env)->ReleaseStringUTFChars(env, path, file);
    if (m == NULL || d == NULL)
    {
        if (m != NULL)
        {
            mj_deleteModel(m);
        }
        throw_illegal(env, error[0] != '\0' ? error : "MuJoCo could not load the model");
        return 0;
    }
    plant* p = calloc(1, sizeof(plant));
    p->m = m;
    p->d = d;
    return (jlong)(intptr_t)p;
}

JNIEXPORT void JNICALL Java_org_nectl_hw_mujoco_MujocoNative_free(JNIEnv* env, jclass type, jlong handle)
{
    (void)env;
    (void)type;
    plant* p = from(handle);
    if (p == NULL)
    {
        return;
    }
    mj_deleteData(p->d);
    mj_deleteModel(p->m);
    free(p->dof);
    free(p);
}

JNIEXPORT void JNICALL Java_org_nectl_hw_mujoco_MujocoNative_counts(JNIEnv* env, jclass type, jlong handle, jintArray out)
{
    (void)type;
    const plant* p = from(handle);
    const jint values[5] = {p->m->nq, p->m->nv, p->m->nbody, p->m->ngeom, p->m->njnt};
    (*env)->SetIntArrayRegion(env, out, 0, 5, values);
}

JNIEXPORT jint JNICALL Java_org_nectl_hw_mujoco_MujocoNative_jointDof(JNIEnv* env, jclass type, jlong handle, jstring name)
{
    (void)type;
    const plant* p = from(handle);
    const char* text = (*env)->GetStringUTFChars(env, name, NULL);
    const int joint = mj_name2id(p->m, mjOBJ_JOINT, text);
    (*env)->ReleaseStringUTFChars(env, name, text);
    if (joint < 0)
    {
        return -1;
    }
    const int kind = p->m->jnt_type[joint];
    return kind == mjJNT_HINGE || kind == mjJNT_SLIDE ? p->m->jnt_dofadr[joint] : -2;
}

JNIEXPORT jint JNICALL Java_org_nectl_hw_mujoco_MujocoNative_bodyId(JNIEnv* env, jclass type, jlong handle, jstring name)
{
    (void)type;
    const plant* p = from(handle);
    const char* text = (*env)->GetStringUTFChars(env, name, NULL);
    const int body = mj_name2id(p->m, mjOBJ_BODY, text);
    (*env)->ReleaseStringUTFChars(env, name, text);
    return body;
}

JNIEXPORT void JNICALL Java_org_nectl_hw_mujoco_MujocoNative_geom(JNIEnv* env, jclass type, jlong handle, jint geom, jdoubleArray out)
{
    (void)type;
    const mjModel* m = from(handle)->m;
    double values[11];
    values[0] = m->geom_type[geom];
    values[1] = m->geom_bodyid[geom];
    memcpy(values + 2, m->geom_size + 3 * geom, 3 * sizeof(double));
    memcpy(values + 5, m->geom_pos + 3 * geom, 3 * sizeof(double));
    memcpy(values + 8, m->geom_quat + 4 * geom, 3 * sizeof(double));
    values[10] = m->geom_quat[4 * geom + 3];
    (*env)->SetDoubleArrayRegion(env, out, 0, 11, values);
}

JNIEXPORT void JNICALL Java_org_nectl_hw_mujoco_MujocoNative_makePlane(JNIEnv* env, jclass type, jlong handle, jint geom)
{
    (void)env;
    (void)type;
    mjModel* m = from(handle)->m;
    m->geom_type[geom] = mjGEOM_PLANE;
    /* Size 0: infinite in the collider; bounding radius 0: never culled by the broad phase. */
    m->geom_size[3 * geom] = 0;
    m->geom_size[3 * geom + 1] = 0;
    m->geom_size[3 * geom + 2] = 1;
    m->geom_rbound[geom] = 0;
}

JNIEXPORT void JNICALL Java_org_nectl_hw_mujoco_MujocoNative_options(JNIEnv* env, jclass type, jlong handle, jdouble timestep,
    jint integrator, jdoubleArray gravity, jint disable, jdoubleArray armature)
{
    (void)type;
    plant* p = from(handle);
    p->m->opt.timestep = timestep;
    p->m->opt.integrator = integrator;
    p->m->opt.disableflags = disable;
    (*env)->GetDoubleArrayRegion(env, gravity, 0, 3, p->m->opt.gravity);
    const int n = (*env)->GetArrayLength(env, armature);
    double* values = malloc(n * sizeof(double));
    (*env)->GetDoubleArrayRegion(env, armature, 0, n, values);
    for (int k = 0; k < n && p->dof != NULL; k++)
    {
        p->m->dof_armature[p->dof[k]] = values[k];
    }
    free(values);
}

JNIEXPORT void JNICALL Java_org_nectl_hw_mujoco_MujocoNative_bind(JNIEnv* env, jclass type, jlong handle, jobject exchange,
    jintArray dofOfCoordinate)
{
    (void)type;
    plant* p = from(handle);
    p->n = (*env)->GetArrayLength(env, dofOfCoordinate);
    free(p->dof);
    p->dof = malloc(p->n * sizeof(int));
    (*env)->GetIntArrayRegion(env, dofOfCoordinate, 0, p->n, (jint*)p->dof);
    p->io = (double*)(*env)->GetDirectBufferAddress(env, exchange);
}

static void read_state(plant* p)
{
    for (int k = 0; k < p->n; k++)
    {
        const int i = p->dof[k];
        q(p)[k] = p->d->qpos[p->m->jnt_qposadr[p->m->dof_jntid[i]]];
        qd(p)[k] = p->d->qvel[i];
        constraint(p)[k] = p->d->qfrc_constraint[i];
    }
}

static void write_state(plant* p)
{
    for (int k = 0; k < p->n; k++)
    {
        const int i = p->dof[k];
        p->d->qpos[p->m->jnt_qposadr[p->m->dof_jntid[i]]] = q(p)[k];
        p->d->qvel[i] = qd(p)[k];
    }
}

/* The wrench of the buffer as xfrc_applied: force at the body's centre of mass, torque moved there from the point. */
static void apply_wrench(plant* p)
{
    const double* w = wrench(p);
    const int body = (int)w[1];
    if (w[0] == 0.0 || body <= 0 || body >= p->m->nbody)
    {
        return;
    }
    /* Positions of the current state: the previous step's kinematics are one step old. */
    mj_kinematics(p->m, p->d);
    double point[3];
    mju_rotVecMat(point, w + 8, p->d->xmat + 9 * body);
    mju_addTo3(point, p->d->xpos + 3 * body);
    double arm[3];
    mju_sub3(arm, point, p->d->xipos + 3 * body);
    double moment[3];
    mju_cross(moment, arm, w + 2);
    double* x = p->d->xfrc_applied + 6 * body;
    mju_copy3(x, w + 2);
    mju_add3(x + 3, w + 5, moment);
}

static void clear_wrench(plant* p)
{
    const int body = (int)wrench(p)[1];
    if (body > 0 && body < p->m->nbody)
    {
        mju_zero(p->d->xfrc_applied + 6 * body, 6);
    }
}

static double normal_force_sum(plant* p)
{
    double sum = 0;
    double force[6];
    for (int c = 0; c < p->d->ncon; c++)
    {
        mj_contactForce(p->m, p->d, c, force);
        sum += force[0];
    }
    return sum;
}

static int finite_state(const plant* p)
{
    for (int i = 0; i < p->m->nv; i++)
    {
        if (!isfinite(p->d->qvel[i]))
        {
            return 0;
        }
    }
    for (int i = 0; i < p->m->nq; i++)
    {
        if (!isfinite(p->d->qpos[i]))
        {
            return 0;
        }
    }
    return 1;
}

JNIEXPORT jint JNICALL Java_org_nectl_hw_mujoco_MujocoNative_step(JNIEnv* env, jclass type, jlong handle, jint substeps)
{
    (void)env;
    (void)type;
    plant* p = from(handle);
    if (p->failed)
    {
        return STEP_ENGINE_ERROR;
    }
    for (int k = 0; k < p->n; k++)
    {
        p->d->qfrc_applied[p->dof[k]] = tau(p)[k];
    }
    const int badBefore = p->d->warning[mjWARN_BADQACC].number + p->d->warning[mjWARN_BADQPOS].number
        + p->d->warning[mjWARN_BADQVEL].number;
    double* summary = contact(p);
    summary[1] = 0;
    summary[2] = -1;
    jmp_buf target;
    error_target = &target;
    if (setjmp(target) != 0)
    {
        error_target = NULL;
        p->failed = 1;
        fprintf(stderr, "nectl mujoco: MuJoCo error in step: %s\n", error_message);
        return STEP_ENGINE_ERROR;
    }
    for (int s = 0; s < substeps; s++)
    {
        apply_wrench(p);
        mj_step(p->m, p->d);
        /* mj_step's contacts and constraint forces are those of the state the step started from. */
        if (p->d->ncon > 0)
        {
            const double normal = normal_force_sum(p);
            summary[1] = normal > summary[1] ? normal : summary[1];
            summary[2] = summary[2] < 0 ? s : summary[2];
        }
    }
    error_target = NULL;
    clear_wrench(p);
    summary[0] = p->d->ncon;
    summary[3] = p->d->ncon > 0 ? normal_force_sum(p) : 0;
    read_state(p);
    const int badAfter = p->d->warning[mjWARN_BADQACC].number + p->d->warning[mjWARN_BADQPOS].number
        + p->d->warning[mjWARN_BADQVEL].number;
    return badAfter != badBefore || !finite_state(p) ? STEP_NON_FINITE : STEP_OK;
}

JNIEXPORT void JNICALL Java_org_nectl_hw_mujoco_MujocoNative_zeroVelocity(JNIEnv* env, jclass type, jlong handle)
{
    (void)env;
    (void)type;
    plant* p = from(handle);
    mju_zero(p->d->qvel, p->m->nv);
    read_state(p);
}

JNIEXPORT void JNICALL Java_org_nectl_hw_mujoco_MujocoNative_setState(JNIEnv* env, jclass type, jlong handle)
{
    (void)env;
    (void)type;
    plant* p = from(handle);
    write_state(p);
    mju_zero(p->d->qfrc_applied, p->m->nv);
    mj_forward(p->m, p->d);
    read_state(p);
}

JNIEXPORT void JNICALL Java_org_nectl_hw_mujoco_MujocoNative_inverse(JNIEnv* env, jclass type, jlong handle)
{
    (void)env;
    (void)type;
    plant* p = from(handle);
    write_state(p);
    for (int k = 0; k < p->n; k++)
    {
        p->d->qacc[p->dof[k]] = qdd(p)[k];
    }
    mj_inverse(p->m, p->d);
    for (int k = 0; k < p->n; k++)
    {
        tau(p)[k] = p->d->qfrc_inverse[p->dof[k]];
    }
}

JNIEXPORT void JNICALL Java_org_nectl_hw_mujoco_MujocoNative_forward(JNIEnv* env, jclass type, jlong handle)
{
    (void)env;
    (void)type;
    plant* p = from(handle);
    write_state(p);
    for (int k = 0; k < p->n; k++)
    {
        p->d->qfrc_applied[p->dof[k]] = tau(p)[k];
    }
    mj_forward(p->m, p->d);
    for (int k = 0; k < p->n; k++)
    {
        qdd(p)[k] = p->d->qacc[p->dof[k]];
    }
}

JNIEXPORT void JNICALL Java_org_nectl_hw_mujoco_MujocoNative_massMatrix(JNIEnv* env, jclass type, jlong handle)
{
    (void)env;
    (void)type;
    plant* p = from(handle);
    write_state(p);
    mj_forward(p->m, p->d);
    const int nv = p->m->nv;
    double* full = malloc(nv * nv * sizeof(double));
    mj_fullM(p->m, full, p->d->qM);
    double* out = mass_matrix(p);
    for (int r = 0; r < p->n; r++)
    {
        for (int c = 0; c < p->n; c++)
        {
            out[r * p->n + c] = full[p->dof[r] * nv + p->dof[c]];
        }
    }
    free(full);
}
