#pragma once
// Task: the coroutine type of a CPU program (a C++20 coroutine). Lazy: nothing runs until the
// owner calls resume(). A program may co_await a child Task, which runs to completion before the
// parent continues, so a program can call helper coroutines. No SystemC here.
//
// Starting and finishing a child hand control to the chain's root, whose resume() is a trampoline
// that continues the next coroutine; so the stack stays flat however many children a program
// awaits in a row. (Symmetric transfer would do it only with tail calls, which GCC 12 emits at -O2
// but not at -O0/-O1 or with sanitizers: a million awaited children overflowed the stack.)

#include <coroutine>
#include <exception>
#include <utility>

namespace angara {

class [[nodiscard]] Task {
 public:
  struct promise_type;
  using Handle = std::coroutine_handle<promise_type>;

  // Suspends at the end so the owner can see done(); a finished child's parent comes next.
  struct FinalAwaiter {
    bool await_ready() const noexcept { return false; }
    void await_suspend(Handle finished) const noexcept {
      promise_type& p = finished.promise();
      if (!p.continuation) return;
      p.root->leaf = p.continuation;
      p.root->switched = true;
    }
    void await_resume() const noexcept {}
  };

  struct promise_type {
    Task get_return_object() noexcept { return Task(Handle::from_promise(*this)); }
    std::suspend_always initial_suspend() const noexcept { return {}; }
    FinalAwaiter final_suspend() const noexcept { return {}; }
    void return_void() const noexcept {}
    void unhandled_exception() noexcept { exception = std::current_exception(); }

    std::exception_ptr exception;          // what escaped the body, for the awaiter or the owner
    std::coroutine_handle<> continuation;  // the parent awaiting this task; none for the root
    promise_type* root = this;             // the outermost task of the chain
    std::coroutine_handle<> leaf;          // root only: innermost suspended task (none: the root)
    bool switched = false;                 // root only: leaf changed, resume it before returning
  };

  // Makes the child the chain's next coroutine at its parent's co_await; rethrows the child's
  // exception there.
  struct Awaiter {
    Handle child;
    bool await_ready() const noexcept { return !child || child.done(); }
    void await_suspend(Handle parent) const noexcept {
      promise_type& c = child.promise();
      c.continuation = parent;
      c.root = parent.promise().root;
      c.root->leaf = child;
      c.root->switched = true;
    }
    void await_resume() const {
      if (child && child.promise().exception) std::rethrow_exception(child.promise().exception);
    }
  };

  Task() = default;
  Task(Task&& other) noexcept : m_handle(std::exchange(other.m_handle, {})) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      destroy();
      m_handle = std::exchange(other.m_handle, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { destroy(); }

  explicit operator bool() const { return static_cast<bool>(m_handle); }
  // True when the program has returned or thrown (or there is none).
  bool done() const { return !m_handle || m_handle.done(); }
  // Runs the chain from its innermost suspended coroutine until it waits on something other
  // than a child, or finishes; requires !done().
  void resume() {
    promise_type& p = m_handle.promise();
    do {
      p.switched = false;
      (p.leaf ? p.leaf : m_handle).resume();
    } while (p.switched);
  }
  // Throws what escaped the program, if anything did.
  void rethrow_if_failed() const {
    if (m_handle && m_handle.done() && m_handle.promise().exception) {
      std::rethrow_exception(m_handle.promise().exception);
    }
  }
  Awaiter operator co_await() const noexcept { return Awaiter{m_handle}; }

 private:
  explicit Task(Handle handle) : m_handle(handle) {}
  void destroy() {
    if (m_handle) m_handle.destroy();
    m_handle = {};
  }

  Handle m_handle;
};

}  // namespace angara
