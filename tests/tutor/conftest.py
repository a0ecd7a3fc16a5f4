import pytest

from tests.factories import LearnerFactory, SchoolClassFactory, TeacherFactory


@pytest.fixture
def learner(db):
    return LearnerFactory()


@pytest.fixture
def teacher(db):
    return TeacherFactory()


@pytest.fixture
def school_class(teacher):
    return SchoolClassFactory(teacher=teacher)
