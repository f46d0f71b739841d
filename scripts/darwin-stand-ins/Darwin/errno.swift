// xnu-11417.101.15 bsd/sys/errno.h, and `errno` as Swift's Darwin overlay declares it
// (swiftlang/swift stdlib/public/Platform/Platform.swift).

/// The overlay's `public var errno: Int32 { get set }`
public var errno: Int32 {
  get { _standIn() }
  set { _standIn() }
}

/// `#define EINTR 4` (bsd/sys/errno.h:93)
public var EINTR: Int32 { 4 }
/// `#define ENOENT 2` (bsd/sys/errno.h:91)
public var ENOENT: Int32 { 2 }
/// `#define EBADF 9` (bsd/sys/errno.h:98)
public var EBADF: Int32 { 9 }
/// `#define ECHILD 10` (bsd/sys/errno.h:99)
public var ECHILD: Int32 { 10 }
/// `#define EAGAIN 35` (bsd/sys/errno.h:131)
public var EAGAIN: Int32 { 35 }
/// `#define EEXIST 17` (bsd/sys/errno.h:109)
public var EEXIST: Int32 { 17 }
/// `#define ENOTDIR 20` (bsd/sys/errno.h:112)
public var ENOTDIR: Int32 { 20 }
/// `#define EINVAL 22` (bsd/sys/errno.h:114)
public var EINVAL: Int32 { 22 }
/// `#define ENOSPC 28` (bsd/sys/errno.h:120)
public var ENOSPC: Int32 { 28 }
/// `#define EPIPE 32` (bsd/sys/errno.h:124)
public var EPIPE: Int32 { 32 }
/// `#define EMSGSIZE 40` (bsd/sys/errno.h:139)
public var EMSGSIZE: Int32 { 40 }
/// `#define ECONNRESET 54` (bsd/sys/errno.h:171)
public var ECONNRESET: Int32 { 54 }
/// `#define ECONNREFUSED 61` (bsd/sys/errno.h:180)
public var ECONNREFUSED: Int32 { 61 }
/// `#define EWOULDBLOCK EAGAIN` (bsd/sys/errno.h:132)
public var EWOULDBLOCK: Int32 { EAGAIN }

/// Swift's Darwin overlay, stdlib/public/Platform/POSIXError.swift: `public enum POSIXErrorCode :
/// Int32`, Darwin's numbers (ECONNREFUSED is 61 here, 111 on Linux). Foundation's
/// `POSIXError.Code` is this type.
public enum POSIXErrorCode: Int32, Sendable {
  case EPERM = 1, ENOENT = 2, ESRCH = 3, EINTR = 4, EIO = 5, ENXIO = 6, E2BIG = 7, ENOEXEC = 8
  case EBADF = 9, ECHILD = 10, EDEADLK = 11, ENOMEM = 12, EACCES = 13, EFAULT = 14, ENOTBLK = 15
  case EBUSY = 16, EEXIST = 17, EXDEV = 18, ENODEV = 19, ENOTDIR = 20, EISDIR = 21, EINVAL = 22
  case ENFILE = 23, EMFILE = 24, ENOTTY = 25, ETXTBSY = 26, EFBIG = 27, ENOSPC = 28, ESPIPE = 29
  case EROFS = 30, EMLINK = 31, EPIPE = 32, EDOM = 33, ERANGE = 34, EAGAIN = 35, EINPROGRESS = 36
  case EALREADY = 37, ENOTSOCK = 38, EDESTADDRREQ = 39, EMSGSIZE = 40, EPROTOTYPE = 41
  case ENOPROTOOPT = 42, EPROTONOSUPPORT = 43, ESOCKTNOSUPPORT = 44, ENOTSUP = 45, EPFNOSUPPORT = 46
  case EAFNOSUPPORT = 47, EADDRINUSE = 48, EADDRNOTAVAIL = 49, ENETDOWN = 50, ENETUNREACH = 51
  case ENETRESET = 52, ECONNABORTED = 53, ECONNRESET = 54, ENOBUFS = 55, EISCONN = 56, ENOTCONN = 57
  case ESHUTDOWN = 58, ETOOMANYREFS = 59, ETIMEDOUT = 60, ECONNREFUSED = 61, ELOOP = 62
  case ENAMETOOLONG = 63, EHOSTDOWN = 64, EHOSTUNREACH = 65, ENOTEMPTY = 66, EPROCLIM = 67
  case EUSERS = 68, EDQUOT = 69, ESTALE = 70, EREMOTE = 71, EBADRPC = 72, ERPCMISMATCH = 73
  case EPROGUNAVAIL = 74, EPROGMISMATCH = 75, EPROCUNAVAIL = 76, ENOLCK = 77, ENOSYS = 78
  case EFTYPE = 79, EAUTH = 80, ENEEDAUTH = 81, EPWROFF = 82, EDEVERR = 83, EOVERFLOW = 84
  case EBADEXEC = 85, EBADARCH = 86, ESHLIBVERS = 87, EBADMACHO = 88, ECANCELED = 89, EIDRM = 90
  case ENOMSG = 91, EILSEQ = 92, ENOATTR = 93, EBADMSG = 94, EMULTIHOP = 95, ENODATA = 96
  case ENOLINK = 97, ENOSR = 98, ENOSTR = 99, EPROTO = 100, ETIME = 101, ENOPOLICY = 103
  case ENOTRECOVERABLE = 104, EOWNERDEAD = 105, EQFULL = 106
  public static var EWOULDBLOCK: POSIXErrorCode { .EAGAIN }
  public static var ELAST: POSIXErrorCode { .EQFULL }
}
