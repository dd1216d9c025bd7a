! the token passed around the ring, in a module of its own (a separate compilation unit)
module fring_mod
  implicit none
  integer :: token = 0
end module fring_mod
