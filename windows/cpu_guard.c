/*
 * CPU guard for pbrain-fivefold64.exe (the x86-64-v3 build).
 *
 * That exe is compiled with AVX2, BMI2, FMA... enabled everywhere, Rust's std included, so on a
 * CPU without them (or a Windows that does not save the YMM registers) its first such
 * instruction would kill it with an illegal-instruction fault: the manager would only see a
 * crashed brain. This file is compiled by scripts/build-windows.sh with plain x86-64 code
 * generation (no AVX) and linked into that exe only. Its initializer sits in .CRT$XCAA, which
 * the C runtime runs before std's own initializers (.CRT$XCT) and before main, so no
 * v3-compiled code has run yet when it checks the CPU.
 *
 * On a CPU without x86-64-v3, or when the environment says FIVEFOLD_CPU=baseline (how the tests
 * exercise this path on any CPU), it starts pbrain-fivefold.exe (the baseline build) from the
 * same folder with the same stdin/stdout/stderr, so the manager talks to that process directly,
 * waits for it and exits with its exit code. The child is put in a job object that is killed
 * with this process, so a manager that kills its brain kills both. If the baseline exe is not
 * there, one ERROR line explains why and the process exits with status 3.
 */
#include <windows.h>
#include <cpuid.h>

#define BASELINE_EXE L"pbrain-fivefold.exe"
#define PATH_CHARS 32768

static int cpu_is_x86_64_v3(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    /* SSE3 0, SSSE3 9, FMA 12, CX16 13, SSE4.1 19, SSE4.2 20, MOVBE 22, POPCNT 23, XSAVE 26,
     * OSXSAVE 27, AVX 28, F16C 29 */
    const unsigned need_c = (1u << 0) | (1u << 9) | (1u << 12) | (1u << 13) | (1u << 19) |
                            (1u << 20) | (1u << 22) | (1u << 23) | (1u << 26) | (1u << 27) |
                            (1u << 28) | (1u << 29);
    if ((c & need_c) != need_c)
        return 0;
    /* The OS must save the SSE and AVX register state (XCR0 bits 1 and 2). */
    unsigned xcr0_lo, xcr0_hi;
    __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
    (void)xcr0_hi;
    if ((xcr0_lo & 6u) != 6u)
        return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    /* BMI1 3, AVX2 5, BMI2 8 */
    const unsigned need_b7 = (1u << 3) | (1u << 5) | (1u << 8);
    if ((b & need_b7) != need_b7)
        return 0;
    if (!__get_cpuid(0x80000001u, &a, &b, &c, &d))
        return 0;
    /* LAHF/SAHF 0, LZCNT 5 */
    return (c & ((1u << 0) | (1u << 5))) == ((1u << 0) | (1u << 5));
}

static int forced_baseline(void)
{
    wchar_t value[16];
    DWORD n = GetEnvironmentVariableW(L"FIVEFOLD_CPU", value, 16);
    return n > 0 && n < 16 && lstrcmpiW(value, L"baseline") == 0;
}

static void say(HANDLE h, const char *text)
{
    DWORD written;
    if (h != NULL && h != INVALID_HANDLE_VALUE)
        WriteFile(h, text, lstrlenA(text), &written, NULL);
}

/* kernel32 only (no user32 for wsprintf): the guard runs before the C runtime is set up. */
static void say_number(HANDLE h, DWORD n)
{
    char digits[12];
    int i = (int)sizeof digits - 1;
    digits[i] = 0;
    do {
        digits[--i] = (char)('0' + n % 10);
        n /= 10;
    } while (n != 0 && i > 0);
    say(h, digits + i);
}

static void inheritable(HANDLE h)
{
    if (h != NULL && h != INVALID_HANDLE_VALUE)
        SetHandleInformation(h, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
}

/* Path of the baseline exe beside this one, or 0 if it cannot be built. */
static int baseline_path(wchar_t *path)
{
    DWORD n = GetModuleFileNameW(NULL, path, PATH_CHARS);
    if (n == 0 || n >= PATH_CHARS)
        return 0;
    DWORD dir = 0;
    for (DWORD i = 0; i < n; i++)
        if (path[i] == L'\\' || path[i] == L'/')
            dir = i + 1;
    const wchar_t *name = BASELINE_EXE;
    DWORD len = (DWORD)lstrlenW(name);
    if (dir + len + 3 > PATH_CHARS) /* room for quotes around it later */
        return 0;
    for (DWORD i = 0; i <= len; i++)
        path[dir + i] = name[i];
    return GetFileAttributesW(path) != INVALID_FILE_ATTRIBUTES;
}

static void run_baseline_instead(void)
{
    static wchar_t path[PATH_CHARS];
    static wchar_t command_line[PATH_CHARS];
    HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    HANDLE err = GetStdHandle(STD_ERROR_HANDLE);

    if (!baseline_path(path)) {
        say(out, "ERROR pbrain-fivefold64.exe needs an AVX2 (x86-64-v3) CPU; use pbrain-fivefold.exe "
                 "or put it in the same folder\r\n");
        ExitProcess(3);
    }
    say(err, "fivefold: no x86-64-v3 CPU (or FIVEFOLD_CPU=baseline): running " "pbrain-fivefold.exe\r\n");

    /* The brain takes no arguments: the command line is the quoted path (CreateProcessW may
     * write into this buffer, so it is ours, not a literal). */
    DWORD len = (DWORD)lstrlenW(path);
    command_line[0] = L'"';
    for (DWORD i = 0; i < len; i++)
        command_line[1 + i] = path[i];
    command_line[len + 1] = L'"';
    command_line[len + 2] = 0;

    inheritable(in);
    inheritable(out);
    inheritable(err);
    STARTUPINFOW si;
    ZeroMemory(&si, sizeof si);
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = in;
    si.hStdOutput = out;
    si.hStdError = err;
    PROCESS_INFORMATION pi;
    ZeroMemory(&pi, sizeof pi);
    /* Process creation can fail for a moment on a loaded machine (seen once in about a hundred
     * starts under wine with both cores busy): try a few times before giving up. */
    BOOL started = FALSE;
    DWORD error = 0;
    for (int attempt = 0; attempt < 5 && !started; attempt++) {
        if (attempt > 0)
            Sleep(20 * attempt);
        started = CreateProcessW(path, command_line, NULL, NULL, TRUE, CREATE_SUSPENDED, NULL,
                                 NULL, &si, &pi);
        if (!started)
            error = GetLastError();
    }
    if (!started) {
        say(out, "ERROR pbrain-fivefold64.exe could not start pbrain-fivefold.exe on this CPU "
                 "without AVX2 (Windows error ");
        say_number(out, error);
        say(out, ")\r\n");
        ExitProcess(3);
    }
    /* Best effort: where jobs are not available the child still ends on END or end of input. */
    HANDLE job = CreateJobObjectW(NULL, NULL);
    if (job != NULL) {
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits;
        ZeroMemory(&limits, sizeof limits);
        limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits);
        AssignProcessToJobObject(job, pi.hProcess);
    }
    ResumeThread(pi.hThread);
    CloseHandle(pi.hThread);
    WaitForSingleObject(pi.hProcess, INFINITE);
    DWORD code = 1;
    GetExitCodeProcess(pi.hProcess, &code);
    ExitProcess(code);
}

static void cpu_guard(void)
{
    if (forced_baseline() || !cpu_is_x86_64_v3())
        run_baseline_instead();
}

/* .CRT$XC* entries run in name order: XCAA comes before std's XCT and the usual XCU. */
__attribute__((used, section(".CRT$XCAA"))) static void (*const fivefold_cpu_guard)(void) = cpu_guard;
